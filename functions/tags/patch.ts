import { authenticate } from '#shared/auth/authenticate';
import { defineHandler } from '#shared/http/handler';
import { readJson } from '#shared/http/request';
import { json } from '#shared/http/response';
import { toTagResource } from '#shared/tags/model';
import { updateTag } from '#shared/tags/store';
import { pathId } from '#shared/validation/ids';
import { patchTagSchema, TAG_ID } from '#shared/validation/tags/schemas';

/** `PATCH /api/user/tags/{id}` `{name?, color?}`: another user's tag 404, a name the caller has 409. */
export const handler = defineHandler(async (request) => {
  const { user } = await authenticate(request);
  const changes = readJson(request, patchTagSchema);
  return json(200, toTagResource(await updateTag(user.id, pathId(request, 'id', TAG_ID), changes)));
});
