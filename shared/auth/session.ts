import { randomBytes } from 'node:crypto';
import { defaults, seal, unseal } from 'iron-webcrypto';
import { serviceKeys } from '#shared/keys';

export const SESSION_COOKIE = 'service_session';
export const SESSION_MAX_AGE_SECONDS = 604800;
const SESSION_MAX_AGE_MS = SESSION_MAX_AGE_SECONDS * 1000;
/** Browsers cap a cookie at 4 KB; anything longer is not ours. */
export const MAX_COOKIE_LENGTH = 4096;

/** What the cookie carries: ids and a number only (iron's encoder refuses Dates). */
export interface SessionClaims {
  userId: string;
  sessionId: string;
  issuedAt: number;
}

const sealOptions = { ...defaults, ttl: SESSION_MAX_AGE_MS };

export function newSessionId(): string {
  return randomBytes(20).toString('base64url');
}

export async function sealSession(claims: SessionClaims): Promise<string> {
  const { session } = await serviceKeys();
  return seal({ u: claims.userId, s: claims.sessionId, i: claims.issuedAt }, session.current, sealOptions);
}

/** Returns the claims of a valid, unexpired cookie value, or undefined for anything else. */
export async function unsealSession(value: string, now = Date.now()): Promise<SessionClaims | undefined> {
  if (value.length === 0 || value.length > MAX_COOKIE_LENGTH) return undefined;
  const { session } = await serviceKeys();
  let payload: unknown;
  try {
    payload = await unseal(value, session.byId, sealOptions);
  } catch {
    return undefined;
  }
  if (payload === null || typeof payload !== 'object') return undefined;
  const { u, s, i } = payload as Record<string, unknown>;
  if (typeof u !== 'string' || typeof s !== 'string' || typeof i !== 'number') return undefined;
  if (i > now + 60_000 || now - i > SESSION_MAX_AGE_MS) return undefined;
  return { userId: u, sessionId: s, issuedAt: i };
}

export function sessionCookie(value: string, secure: boolean, now = Date.now()): string {
  const expires = new Date(now + SESSION_MAX_AGE_MS).toUTCString();
  return `${SESSION_COOKIE}=${value}; Max-Age=${SESSION_MAX_AGE_SECONDS}; Path=/; Expires=${expires}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

export function clearedSessionCookie(secure: boolean): string {
  return `${SESSION_COOKIE}=; Max-Age=0; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}
