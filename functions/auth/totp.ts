import { refuseCrossSite } from '#shared/auth/authenticate';
import { clearedPendingCookie, readPendingSignIn } from '#shared/auth/pending-sign-in';
import { loginWithCode, SIGN_IN_EXPIRED } from '#shared/auth/second-factor';
import { openedSessionCookie } from '#shared/auth/session';
import { ServiceError } from '#shared/errors';
import { defineHandler } from '#shared/http/handler';
import { readJson } from '#shared/http/request';
import { json } from '#shared/http/response';
import { noteUserId } from '#shared/log/logger';
import { toUserResource } from '#shared/users/model';
import { codeBodySchema } from '#shared/validation/sign-in/mfa';

/**
 * The TOTP code (or a recovery code) a provider sign-in of an account with TOTP on still owes: with
 * the pending sign-in's cookie, answers `{user}` and the session cookie as a login does.
 */
export const handler = defineHandler(
  async (request) => {
    // As the login: another site's page must not finish a sign-in in the visitor's browser.
    refuseCrossSite(request);
    const { code } = readJson(request, codeBodySchema);
    const userId = await readPendingSignIn(request);
    if (!userId) throw new ServiceError('unauthenticated', SIGN_IN_EXPIRED);
    const session = await loginWithCode(userId, request.sourceIp, code, request.headers['user-agent']);
    noteUserId(request, session.user.id);
    return json(
      200,
      { user: toUserResource(session.user) },
      {
        cookies: [clearedPendingCookie(request.secure), await openedSessionCookie(session, request.secure)],
      },
    );
  },
  { metricsByStatus: { 200: 'LoginSucceeded', 401: 'LoginFailed', 429: 'LoginThrottled' } },
);
