import { authenticate } from '#shared/auth/authenticate';
import { defineHandler } from '#shared/http/handler';
import { json } from '#shared/http/response';
import { toTagResource } from '#shared/tags/model';
import { listTags } from '#shared/tags/store';
import { requireUserAdministrator, userToActOn } from '#shared/users/admin';
import { pathId, USER_ID } from '#shared/validation/ids';

/** `GET /api/users/{id}/tags`: a user's tags, for an administrator who may act on it (else 404). */
export const handler = defineHandler(async (request) => {
  const { user: actor } = await authenticate(request, { consistent: true });
  requireUserAdministrator(actor);
  const user = await userToActOn(actor, pathId(request, 'id', USER_ID), 'get');
  return json(200, (await listTags(user.id)).map(toTagResource));
});
