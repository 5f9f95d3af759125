import { authenticate } from '#shared/auth/authenticate';
import { defineHandler } from '#shared/http/handler';
import { json } from '#shared/http/response';
import { findInvite } from '#shared/invites/invites';
import { requireUserAdministrator } from '#shared/users/admin';
import { pathId } from '#shared/validation/ids';
import { INVITE_ID } from '#shared/validation/invites/invites';

/** `GET /api/auth/invites/{id}` (administrators), as Zipline 4.4's: by the invite's id or its code. */
export const handler = defineHandler(async (request) => {
  const { user } = await authenticate(request);
  requireUserAdministrator(user);
  return json(200, await findInvite(pathId(request, 'id', INVITE_ID)));
});
