import { SESSION_COOKIE, unsealSession } from '#shared/auth/session';
import { safeEqual, verifyToken } from '#shared/auth/token';
import { unauthenticated } from '#shared/errors';
import type { HttpRequest } from '#shared/http/request';
import type { UserRecord } from '#shared/users/model';
import { getUser } from '#shared/users/store';

export interface Caller {
  user: UserRecord;
  /** The session that authenticated the request; undefined for token calls. */
  sessionId: string | undefined;
  via: 'cookie' | 'token';
}

/**
 * Resolves the caller: the `Authorization` header when present (alone decides), otherwise the
 * session cookie. One eventually consistent GetItem on success; a miss is re-checked with a
 * consistent read before refusing, so a session created a moment ago is not refused. Every failure
 * is the same 401.
 */
export async function authenticate(request: HttpRequest): Promise<Caller> {
  const authorization = request.headers.authorization;
  if (authorization !== undefined) {
    const claims = await verifyToken(authorization.replace(/^Bearer\s+/i, '').trim());
    if (!claims) throw unauthenticated();
    const user = await findConfirmed(claims.userId, (found) => safeEqual(found.tokenNonce, claims.nonce));
    return { user, sessionId: undefined, via: 'token' };
  }
  const cookie = request.cookies[SESSION_COOKIE];
  if (cookie === undefined) throw unauthenticated();
  const claims = await unsealSession(cookie);
  if (!claims) throw unauthenticated();
  const user = await findConfirmed(
    claims.userId,
    (found) => found.sessions[claims.sessionId] === claims.issuedAt,
  );
  return { user, sessionId: claims.sessionId, via: 'cookie' };
}

async function findConfirmed(userId: string, accepts: (user: UserRecord) => boolean): Promise<UserRecord> {
  const user = await getUser(userId);
  if (user && accepts(user)) return user;
  const fresh = await getUser(userId, { consistent: true });
  if (fresh && accepts(fresh)) return fresh;
  throw unauthenticated();
}
