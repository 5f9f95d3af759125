import { deleteUserAs, whileTimeLeft } from '#shared/accounts/deletion';
import { authenticate } from '#shared/auth/authenticate';
import { defineHandler } from '#shared/http/handler';
import { readJson } from '#shared/http/request';
import { json } from '#shared/http/response';
import { requireUserAdministrator, userToActOn } from '#shared/users/admin';
import { toUserResource } from '#shared/users/model';
import { pathId, USER_ID } from '#shared/validation/ids';
import { deleteUserSchema } from '#shared/validation/users/deletion';

/**
 * Deletes the user and everything it owns; answers 200 with the deleted user, or 202 with it when
 * the function's time ran out first: the worker (`users/continue-deletions`) finishes the deletion,
 * and `GET /api/users/{id}` answers 404 once it is done. The body is optional; `{"delete": true}`
 * deletes the stored file contents too, otherwise they stay in the bucket.
 */
export const handler = defineHandler(async (request, invocation) => {
  const { user: actor } = await authenticate(request, { consistent: true });
  requireUserAdministrator(actor);
  const body = request.body === undefined ? {} : readJson(request, deleteUserSchema);
  const target = await userToActOn(actor, pathId(request, 'id', USER_ID), 'delete');
  const { user, done } = await deleteUserAs(
    actor,
    target,
    { contents: body.delete === true },
    whileTimeLeft(invocation.remainingMs),
  );
  if (done) return json(200, toUserResource(user));
  return json(202, toUserResource(user), { headers: { location: `/api/users/${user.id}` } });
});
