import { authenticate } from '#shared/auth/authenticate';
import { defineHandler } from '#shared/http/handler';
import { json } from '#shared/http/response';
import { requireUserAdministrator, userToActOn } from '#shared/users/admin';
import { toUserResource } from '#shared/users/model';
import { pathId, USER_ID } from '#shared/validation/ids';

export const handler = defineHandler(async (request) => {
  const { user: actor } = await authenticate(request, { consistent: true });
  requireUserAdministrator(actor);
  const user = await userToActOn(actor, pathId(request, 'id', USER_ID), 'get');
  return json(200, toUserResource(user));
});
