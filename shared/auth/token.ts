import { createHmac, timingSafeEqual } from 'node:crypto';
import { serviceKeys } from '#shared/secrets';

/**
 * API token: `<keyId>.<userId>.<nonce>.<mac>`, mac = HMAC-SHA256(token key, userId.nonce).
 * The table keeps only the nonce, so a copy of the table cannot produce a valid token, and
 * resetting the nonce invalidates the old token at once. The key id lets keys rotate.
 */
export interface TokenClaims {
  userId: string;
  nonce: string;
}

const PART = /^[A-Za-z0-9_-]{1,64}$/;
export const MAX_TOKEN_LENGTH = 512;

function mac(key: Buffer, userId: string, nonce: string): Buffer {
  return createHmac('sha256', key).update(`${userId}.${nonce}`).digest();
}

export async function issueToken(userId: string, nonce: string): Promise<string> {
  const { token } = await serviceKeys();
  return `${token.current.id}.${userId}.${nonce}.${mac(token.current.secret, userId, nonce).toString('base64url')}`;
}

/** Checks the signature only; the caller still compares the nonce with the stored one. */
export async function verifyToken(raw: string): Promise<TokenClaims | undefined> {
  if (raw.length > MAX_TOKEN_LENGTH) return undefined;
  const parts = raw.split('.');
  if (parts.length !== 4 || !parts.every((part) => PART.test(part))) return undefined;
  const [keyId, userId, nonce, signature] = parts as [string, string, string, string];
  const { token } = await serviceKeys();
  const key = token.byId.get(keyId);
  if (!key) return undefined;
  const given = Buffer.from(signature, 'base64url');
  const expected = mac(key, userId, nonce);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  return { userId, nonce };
}

/** Constant-time string equality for secrets of possibly different lengths. */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
