import { randomBytes } from 'node:crypto';
import { sealValue, unsealValue } from '#shared/auth/seal';
import { config } from '#shared/config/service';
import { clearCookie, setCookie } from '#shared/http/cookies';
import type { UserRecord } from '#shared/users/model';
import { addSession } from '#shared/users/sign-in/sessions';

export const SESSION_COOKIE = 'service_session';
export const SESSION_MAX_AGE_SECONDS = 604800;
const SESSION_MAX_AGE_MS = SESSION_MAX_AGE_SECONDS * 1000;

/** How a session was made: the password login (with its TOTP code when on), a provider, a passkey. */
export type SignInMethod = 'password' | 'provider' | 'passkey';
const METHODS: readonly string[] = ['password', 'provider', 'passkey'] satisfies SignInMethod[];

/** What the cookie carries: ids, a number and a word only (iron's encoder refuses Dates). */
export interface SessionClaims {
  userId: string;
  sessionId: string;
  issuedAt: number;
  /** Absent from cookies made before sessions recorded it: treated as not made by the password. */
  method?: SignInMethod | undefined;
}

export function newSessionId(): string {
  return randomBytes(20).toString('base64url');
}

export async function sealSession(claims: SessionClaims): Promise<string> {
  return sealValue(
    {
      u: claims.userId,
      s: claims.sessionId,
      i: claims.issuedAt,
      ...(claims.method === undefined ? {} : { m: claims.method }),
    },
    SESSION_MAX_AGE_MS,
  );
}

/** Returns the claims of a valid, unexpired cookie value, or undefined for anything else. */
export async function unsealSession(value: string, now = Date.now()): Promise<SessionClaims | undefined> {
  const payload = await unsealValue(value, SESSION_MAX_AGE_MS);
  if (!payload) return undefined;
  const { u, s, i, m } = payload;
  if (typeof u !== 'string' || typeof s !== 'string' || typeof i !== 'number') return undefined;
  if (m !== undefined && !(typeof m === 'string' && METHODS.includes(m))) return undefined;
  if (i > now + 60_000 || now - i > SESSION_MAX_AGE_MS) return undefined;
  return { userId: u, sessionId: s, issuedAt: i, method: m as SignInMethod | undefined };
}

export interface OpenedSession {
  user: UserRecord;
  sessionId: string;
  issuedAt: number;
  method: SignInMethod;
}

/**
 * Signs a user in, whatever proved who they are (`method`): a new session id in the user's
 * `sessions` (capped, oldest dropped), with the client's `User-Agent` beside it (what
 * `GET /api/user/sessions` shows). The cookie remembers the method: a password change asks more of a
 * session the password did not make (auth/current-password.ts).
 */
export async function openSession(
  user: UserRecord,
  method: SignInMethod,
  userAgent: string | undefined,
): Promise<OpenedSession> {
  const sessionId = newSessionId();
  const issuedAt = Date.now();
  const added = await addSession(user, { sessionId, issuedAt, userAgent }, config().maxSessions);
  return { user: added, sessionId, issuedAt, method };
}

/** The Set-Cookie of an opened session (sealed). */
export async function openedSessionCookie(session: OpenedSession, secure: boolean): Promise<string> {
  return sessionCookie(await sealSession({ userId: session.user.id, ...session }), secure);
}

export function sessionCookie(value: string, secure: boolean, now = Date.now()): string {
  return setCookie(SESSION_COOKIE, value, { maxAgeSeconds: SESSION_MAX_AGE_SECONDS, path: '/', secure, now });
}

export function clearedSessionCookie(secure: boolean): string {
  return clearCookie(SESSION_COOKIE, '/', secure);
}
