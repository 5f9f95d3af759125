import { authenticate } from '#shared/auth/authenticate';
import { defineHandler } from '#shared/http/handler';
import { json } from '#shared/http/response';
import { deleteInvite } from '#shared/invites/invites';
import { requireUserAdministrator } from '#shared/users/admin';
import { pathId } from '#shared/validation/ids';
import { INVITE_ID } from '#shared/validation/invites/invites';

/** `DELETE /api/auth/invites/{id}` (administrators), as Zipline 4.4's: answers the deleted invite. */
export const handler = defineHandler(async (request) => {
  const { user } = await authenticate(request);
  requireUserAdministrator(user);
  return json(200, await deleteInvite(pathId(request, 'id', INVITE_ID)));
});
