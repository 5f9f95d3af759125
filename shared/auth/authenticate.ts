import { SESSION_COOKIE, type SignInMethod, unsealSession } from '#shared/auth/session';
import { safeEqual, verifyToken } from '#shared/auth/token';
import { config } from '#shared/config/service';
import { forbidden, unauthenticated } from '#shared/errors';
import { SAFE_METHODS } from '#shared/http/methods';
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
  /** How the session was made (undefined for token calls and for cookies older than the record). */
  signedInWith: SignInMethod | undefined;
}

export interface AuthenticateOptions {
  /**
   * Read the caller's user item strongly consistently: for routes that decide by the caller's role,
   * so a role change or a deletion applies to the very next request.
   */
  consistent?: boolean;
  /**
   * The route changes how the account signs in (`requireSession`): an API token is refused with 403
   * once it is known to be valid.
   */
  sessionOnly?: boolean;
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
    const caller: Caller = { user, sessionId: undefined, via: 'token', signedInWith: undefined };
    if (options.sessionOnly === true) requireSession(caller);
    return caller;
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
  return { user, sessionId: claims.sessionId, via: 'cookie', signedInWith: claims.method };
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

export const SESSION_REQUIRED =
  'this changes how the account signs in, which needs a session: sign in (the dashboard), not the API token';

/**
 * The one rule for everything that adds or removes a way to sign in, or changes what signing in
 * needs (providers, TOTP, passkeys, the password, the username): a session is needed. An API token
 * sits in uploader configs and scripts; its holder must not be able to make it the account. Routes
 * that always change sign-in pass `sessionOnly` to `authenticate`; routes where only some fields do
 * (`PATCH /api/user`, `PATCH /api/users/{id}`) call this once the body is read.
 */
export function requireSession(caller: Caller): void {
  if (caller.via !== 'cookie') throw forbidden(SESSION_REQUIRED);
}

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
