import { refuseCrossSite } from '#shared/auth/authenticate';
import { login } from '#shared/auth/login';
import { CODE_REQUIRED } from '#shared/auth/second-factor';
import { openedSessionCookie } from '#shared/auth/session';
import { defineHandler } from '#shared/http/handler';
import { readJson } from '#shared/http/request';
import { json } from '#shared/http/response';
import { noteUserId } from '#shared/log/logger';
import { toUserResource } from '#shared/users/model';
import { loginSchema } from '#shared/validation/users/account';

/** Login CSRF (a page signing the visitor in as someone else) gets the cookie routes' origin check. */
export const handler = defineHandler(
  async (request) => {
    refuseCrossSite(request);
    const { username, password, code } = readJson(request, loginSchema);
    const session = await login(username, password, request.sourceIp, code, request.headers['user-agent']);
    // What Zipline's clients expect: ask for the code, set no cookie.
    if (session === CODE_REQUIRED) return json(200, { totp: true });
    noteUserId(request, session.user.id);
    return json(
      200,
      { user: toUserResource(session.user) },
      { cookies: [await openedSessionCookie(session, request.secure)] },
    );
  },
  { metricsByStatus: { 200: 'LoginSucceeded', 401: 'LoginFailed', 429: 'LoginThrottled' } },
);
