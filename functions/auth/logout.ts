import { authenticate } from '#shared/auth/authenticate';
import { clearedSessionCookie } from '#shared/auth/session';
import { defineHandler } from '#shared/http/handler';
import { json } from '#shared/http/response';
import { removeSessions } from '#shared/users/sign-in/sessions';

/** POST (and GET, which existing clients use): ends this session and clears the cookie. */
export const handler = defineHandler(async (request) => {
  const caller = await authenticate(request);
  if (caller.sessionId !== undefined) await removeSessions(caller.user, [caller.sessionId]);
  return json(200, { loggedOut: true }, { cookies: [clearedSessionCookie(request.secure)] });
});
