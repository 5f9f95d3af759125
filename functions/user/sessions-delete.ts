import { endSessions } from '#shared/accounts/sessions';
import { authenticate } from '#shared/auth/authenticate';
import { defineHandler } from '#shared/http/handler';
import { readJson } from '#shared/http/request';
import { json } from '#shared/http/response';
import { endSessionsSchema } from '#shared/validation/account/home';

/**
 * `DELETE /api/user/sessions` (Zipline 4.4's body: `{sessionId}` or `{all: true}`): ends sessions at
 * once. Session-only: who may stay signed in is part of how the account signs in (docs/security.md),
 * so the API token is refused (403) as it is for the sign-in methods.
 */
export const handler = defineHandler(async (request) => {
  const caller = await authenticate(request, { sessionOnly: true, consistent: true });
  const body = readJson(request, endSessionsSchema);
  const target = body.all === true ? { all: true as const } : { sessionId: body.sessionId as string };
  return json(200, await endSessions(caller.user, caller.sessionId as string, target));
});
