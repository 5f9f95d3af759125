import { authenticate } from '#shared/auth/authenticate';
import { defineHandler } from '#shared/http/handler';
import { json } from '#shared/http/response';
import { toTagResource } from '#shared/tags/model';
import { requireTag } from '#shared/tags/store';
import { pathId } from '#shared/validation/ids';
import { TAG_ID } from '#shared/validation/tags/schemas';

/** `GET /api/user/tags/{id}`: the caller's tag; another user's is as unknown (404). */
export const handler = defineHandler(async (request) => {
  const { user } = await authenticate(request);
  return json(200, toTagResource(await requireTag(user.id, pathId(request, 'id', TAG_ID))));
});
