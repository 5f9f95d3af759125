import { authenticate } from '#shared/auth/authenticate';
import { defineHandler } from '#shared/http/handler';
import { readJson } from '#shared/http/request';
import { json } from '#shared/http/response';
import { toTagResource } from '#shared/tags/model';
import { createTag } from '#shared/tags/store';
import { createTagSchema } from '#shared/validation/tags/schemas';

/** `POST /api/user/tags` `{name, color}`: a new tag; a name the caller already has is a 409. */
export const handler = defineHandler(async (request) => {
  const { user } = await authenticate(request);
  const { name, color } = readJson(request, createTagSchema);
  return json(200, toTagResource(await createTag(user.id, name, color)));
});
