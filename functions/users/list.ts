import { authenticate } from '#shared/auth/authenticate';
import { getFileUsage } from '#shared/files/record/stats';
import { defineHandler } from '#shared/http/handler';
import { validate } from '#shared/http/request';
import { json } from '#shared/http/response';
import { requireUserAdministrator } from '#shared/users/admin';
import { listUsersFor } from '#shared/users/listing';
import { listUsersQuerySchema } from '#shared/validation/users/admin';

/**
 * A JSON array of the users the caller may act on, each with its `usage` (files and bytes, from its
 * file counters); the next page's cursor in `x-next-cursor`.
 */
export const handler = defineHandler(async (request) => {
  const { user: actor } = await authenticate(request, { consistent: true });
  requireUserAdministrator(actor);
  const query = validate(listUsersQuerySchema, request.query);
  const page = await listUsersFor(actor, { limit: query.limit, cursor: query.cursor });
  const usage = await getFileUsage(page.users.map((user) => user.id));
  const users = page.users.map((user) => ({ ...user, usage: usage.get(user.id) }));
  return json(200, users, page.nextCursor ? { headers: { 'x-next-cursor': page.nextCursor } } : {});
});
