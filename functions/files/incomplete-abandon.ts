import { authenticate } from '#shared/auth/authenticate';
import { abandonIncomplete } from '#shared/files/upload/chunked/abandon';
import { defineHandler } from '#shared/http/handler';
import { readJson } from '#shared/http/request';
import { json } from '#shared/http/response';
import { abandonIncompleteSchema } from '#shared/validation/files/chunk-headers';

/**
 * `DELETE /api/user/files/incomplete {id: [...]}` (Zipline 4.4): abandons these chunked uploads of
 * the caller's (their room in the quota back, their chunks deleted); answers `{count}` abandoned.
 */
export const handler = defineHandler(async (request) => {
  const { user } = await authenticate(request);
  const { id } = readJson(request, abandonIncompleteSchema);
  return json(200, { count: await abandonIncomplete(user.id, id) });
});
