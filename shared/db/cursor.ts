import { createHmac, timingSafeEqual } from 'node:crypto';
import { invalid } from '#shared/errors';
import { serviceKeys } from '#shared/secrets';

/**
 * Opaque pagination cursors: the DynamoDB key to resume from, bound to a scope (for example
 * `users` or `files:<userId>:<sort>`) and signed, so a client can neither edit a cursor nor replay
 * one in another user's partition or another listing.
 */
export async function encodeCursor(scope: string, key: Record<string, unknown>): Promise<string> {
  const payload = Buffer.from(JSON.stringify(key)).toString('base64url');
  return `${payload}.${await sign(scope, payload)}`;
}

export async function decodeCursor(scope: string, cursor: string): Promise<Record<string, unknown>> {
  const [payload, signature, extra] = cursor.split('.');
  if (!payload || !signature || extra !== undefined || cursor.length > 2048) throw invalid('invalid cursor');
  const expected = Buffer.from(await sign(scope, payload));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid('invalid cursor');
  const key: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString());
  if (key === null || typeof key !== 'object' || Array.isArray(key)) throw invalid('invalid cursor');
  return key as Record<string, unknown>;
}

async function sign(scope: string, payload: string): Promise<string> {
  const { cursor } = await serviceKeys();
  return createHmac('sha256', cursor).update(`${scope}\n${payload}`).digest('base64url');
}
