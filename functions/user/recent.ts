import { authenticate } from '#shared/auth/authenticate';
import { recentFiles } from '#shared/files/listing/recent';
import { toFileResource } from '#shared/files/model';
import { withCountedViews } from '#shared/files/serve/popular-views';
import { defineHandler } from '#shared/http/handler';
import { validate } from '#shared/http/request';
import { json } from '#shared/http/response';
import { recentQuerySchema } from '#shared/validation/account/home';

/** `GET /api/user/recent?take=` (Zipline 4.4's): the caller's newest files, 3 unless `take` (1–100) says. */
export const handler = defineHandler(async (request) => {
  const { user } = await authenticate(request);
  const { take } = validate(recentQuerySchema, request.query);
  return json(
    200,
    (await withCountedViews(await recentFiles(user.id, take))).map((file) => toFileResource(file)),
  );
});
