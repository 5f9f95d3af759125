import { authenticate } from '#shared/auth/authenticate';
import { defineHandler } from '#shared/http/handler';
import { json } from '#shared/http/response';
import { deleteTag } from '#shared/tags/store';
import { pathId } from '#shared/validation/ids';
import { TAG_ID } from '#shared/validation/tags/schemas';

/** `DELETE /api/user/tags/{id}`: the tag, and it off each of its files (Zipline answers `{success}`). */
export const handler = defineHandler(async (request) => {
  const { user } = await authenticate(request);
  await deleteTag(user.id, pathId(request, 'id', TAG_ID));
  return json(200, { success: true });
});
