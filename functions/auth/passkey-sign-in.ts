import { refuseCrossSite } from '#shared/auth/authenticate';
import { openedSessionCookie, openSession } from '#shared/auth/session';
import { defineHandler } from '#shared/http/handler';
import { relyingParty } from '#shared/http/origin';
import { readJson } from '#shared/http/request';
import { json } from '#shared/http/response';
import { noteUserId } from '#shared/log/logger';
import { verifyPasskeySignIn } from '#shared/passkeys/ceremonies';
import { toUserResource } from '#shared/users/model';
import { passkeySignInSchema } from '#shared/validation/sign-in/passkeys';

/**
 * Signs in with a passkey: 200 `{user}` and the same session cookie as a password login; every
 * failure the same 401. Login CSRF gets the cookie routes' origin check, as the password login does.
 */
export const handler = defineHandler(
  async (request) => {
    refuseCrossSite(request);
    const { response } = readJson(request, passkeySignInSchema);
    const session = await openSession(
      await verifyPasskeySignIn(response, relyingParty(request)),
      'passkey',
      request.headers['user-agent'],
    );
    noteUserId(request, session.user.id);
    return json(
      200,
      { user: toUserResource(session.user) },
      { cookies: [await openedSessionCookie(session, request.secure)] },
    );
  },
  { metricsByStatus: { 200: 'LoginSucceeded', 401: 'LoginFailed' } },
);
