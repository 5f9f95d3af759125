import { authenticate } from '#shared/auth/authenticate';
import { defineHandler } from '#shared/http/handler';
import { readJson } from '#shared/http/request';
import { json } from '#shared/http/response';
import { deleteUserAs, requireUserAdministrator, userToActOn } from '#shared/users/admin';
import { toUserResource } from '#shared/users/model';
import { deleteUserSchema } from '#shared/validation/users';

/**
 * Deletes the user and everything it owns; answers with the deleted user. The body is optional.
 * `{"delete": true}` asks for stored file contents too; no contents are stored yet, so today the
 * flag is validated and the deletion is the same either way.
 */
export const handler = defineHandler(async (request) => {
  const { user: actor } = await authenticate(request, { consistent: true });
  requireUserAdministrator(actor);
  if (request.body !== undefined) readJson(request, deleteUserSchema);
  const target = await userToActOn(actor, request.pathParameters.id as string, 'delete');
  return json(200, toUserResource(await deleteUserAs(actor, target)));
});
