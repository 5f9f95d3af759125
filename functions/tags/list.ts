import { authenticate } from '#shared/auth/authenticate';
import { defineHandler } from '#shared/http/handler';
import { json } from '#shared/http/response';
import { toTagResource } from '#shared/tags/model';
import { listTags } from '#shared/tags/store';

/** `GET /api/user/tags`: the caller's tags, oldest first (Zipline's). */
export const handler = defineHandler(async (request) => {
  const { user } = await authenticate(request);
  return json(200, (await listTags(user.id)).map(toTagResource));
});
