import { authenticate } from '#shared/auth/authenticate';
import { listIncomplete } from '#shared/files/upload/chunked/incomplete';
import { defineHandler } from '#shared/http/handler';
import { json } from '#shared/http/response';

/** `GET /api/user/files/incomplete` (Zipline 4.4): the caller's chunked uploads not yet completed. */
export const handler = defineHandler(async (request) => {
  const { user } = await authenticate(request);
  return json(200, await listIncomplete(user.id));
});
