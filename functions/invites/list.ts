import { authenticate } from '#shared/auth/authenticate';
import { defineHandler } from '#shared/http/handler';
import { json } from '#shared/http/response';
import { listInvites } from '#shared/invites/invites';
import { requireUserAdministrator } from '#shared/users/admin';

/** `GET /api/auth/invites` (administrators), as Zipline 4.4's: every invite, newest first. */
export const handler = defineHandler(async (request) => {
  const { user } = await authenticate(request);
  requireUserAdministrator(user);
  return json(200, await listInvites());
});
