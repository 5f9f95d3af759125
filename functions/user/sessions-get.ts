import { listSessions } from '#shared/accounts/sessions';
import { authenticate } from '#shared/auth/authenticate';
import { defineHandler } from '#shared/http/handler';
import { json } from '#shared/http/response';

/**
 * `GET /api/user/sessions` (Zipline 4.4's `{current, other}`): read from the caller's user item, the
 * one GetItem authenticating already made. With the API token `current` is null.
 */
export const handler = defineHandler(async (request) => {
  const { user, sessionId } = await authenticate(request);
  return json(200, listSessions(user, sessionId));
});
