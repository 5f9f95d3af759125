import { defaults, seal, unseal } from 'iron-webcrypto';
import { serviceKeys } from '#shared/secrets';

/** Browsers cap a cookie at 4 KB; anything longer is not ours. */
export const MAX_COOKIE_LENGTH = 4096;

/**
 * Sealed cookie values (iron: AES-256-CBC + HMAC-SHA256 with the session password derived from the
 * service keys, rotation-aware): opaque and tamper-proof, valid for `ttlMs`. The session cookie and
 * an OAuth sign-in's flow cookie both use it. Payloads hold small plain data (iron refuses Dates).
 */
export async function sealValue(payload: Record<string, unknown>, ttlMs: number): Promise<string> {
  const { session } = await serviceKeys();
  return seal(payload, session.current, { ...defaults, ttl: ttlMs });
}

/** The payload of a valid, unexpired sealed value; undefined for anything else (never throws on input). */
export async function unsealValue(
  value: string,
  ttlMs: number,
): Promise<Record<string, unknown> | undefined> {
  if (value.length === 0 || value.length > MAX_COOKIE_LENGTH) return undefined;
  const { session } = await serviceKeys();
  let payload: unknown;
  try {
    payload = await unseal(value, session.byId, { ...defaults, ttl: ttlMs });
  } catch {
    return undefined;
  }
  return payload !== null && typeof payload === 'object' ? (payload as Record<string, unknown>) : undefined;
}
