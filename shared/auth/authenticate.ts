import { SESSION_COOKIE, unsealSession } from '#shared/auth/session';
import { safeEqual, verifyToken } from '#shared/auth/token';
import { config } from '#shared/config';
import { forbidden, unauthenticated } from '#shared/errors';
import { requestHost, requestOrigin } from '#shared/http/origin';
import type { HttpRequest } from '#shared/http/request';
import { noteUserId } from '#shared/log/logger';
import type { UserRecord } from '#shared/users/model';
import { getUser } from '#shared/users/store';

export interface Caller {
  user: UserRecord;
  /** The session that authenticated the request; undefined for token calls. */
  sessionId: string | undefined;
  via: 'cookie' | 'token';
}

export interface AuthenticateOptions {
  /**
   * Read the caller's user item strongly consistently: for routes that decide by the caller's role,
   * so a role change or a deletion applies to the very next request.
   */
  consistent?: boolean;
}

/**
 * Resolves the caller: the `Authorization` header when present (alone decides), otherwise the
 * session cookie. One eventually consistent GetItem on success; a miss is re-checked with a
 * consistent read before refusing, so a session created a moment ago is not refused. Every failure
 * is the same 401.
 */
export async function authenticate(request: HttpRequest, options: AuthenticateOptions = {}): Promise<Caller> {
  const consistent = options.consistent === true;
  const authorization = request.headers.authorization;
  if (authorization !== undefined) {
    const claims = await verifyToken(authorization.replace(/^Bearer\s+/i, '').trim());
    if (!claims) throw unauthenticated();
    const user = await findConfirmed(
      claims.userId,
      (found) => safeEqual(found.tokenNonce, claims.nonce),
      consistent,
    );
    noteUserId(request, user.id);
    return { user, sessionId: undefined, via: 'token' };
  }
  const cookie = request.cookies[SESSION_COOKIE];
  if (cookie === undefined) throw unauthenticated();
  // The browser attaches the cookie to any site's request: a write must come from an allowed page.
  if (!SAFE_METHODS.has(request.method)) refuseCrossSite(request);
  const claims = await unsealSession(cookie);
  if (!claims) throw unauthenticated();
  const user = await findConfirmed(
    claims.userId,
    (found) => found.sessions[claims.sessionId] === claims.issuedAt,
    consistent,
  );
  noteUserId(request, user.id);
  return { user, sessionId: claims.sessionId, via: 'cookie' };
}

async function findConfirmed(
  userId: string,
  accepts: (user: UserRecord) => boolean,
  consistent: boolean,
): Promise<UserRecord> {
  // A user whose deletion has started is refused like one that is gone.
  const usable = (user: UserRecord | undefined): user is UserRecord =>
    user !== undefined && user.deletingAt === undefined && accepts(user);
  if (!consistent) {
    const user = await getUser(userId);
    if (usable(user)) return user;
  }
  const fresh = await getUser(userId, { consistent: true });
  if (usable(fresh)) return fresh;
  throw unauthenticated();
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export const CROSS_SITE_REFUSED = 'cross-site request refused';

/**
 * CSRF defence for requests a browser may send on another site's behalf: refused (403) when the
 * browser says the request is cross-site (`Sec-Fetch-Site`) or names an `Origin` that is neither
 * the service's own (the host the client addressed, `requestHost`: the dashboard's behind the
 * CloudFront distribution) nor in `ALLOWED_ORIGINS`. Clients that send neither header (CLIs,
 * ShareX, scripts) are not browsers acting for someone else and pass.
 */
export function refuseCrossSite(request: HttpRequest): void {
  if (request.headers['sec-fetch-site']?.toLowerCase() === 'cross-site') throw forbidden(CROSS_SITE_REFUSED);
  const origin = request.headers.origin;
  if (origin === undefined) return;
  const given = origin.toLowerCase();
  const own = requestHost(request) === undefined ? undefined : requestOrigin(request).toLowerCase();
  const allowed = given === own || config().allowedOrigins.includes(given);
  if (!allowed) throw forbidden(CROSS_SITE_REFUSED);
}
