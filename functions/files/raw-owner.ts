import { authenticate } from '#shared/auth/authenticate';
import { presignFile } from '#shared/files/access';
import { requireFile } from '#shared/files/model';
import { getFile } from '#shared/files/store';
import { defineHandler } from '#shared/http/handler';
import { BASE_HEADERS } from '#shared/http/response';
import { FILE_ID, pathId } from '#shared/validation/ids';

/**
 * The owner's download of one of their files, for the dashboard's previews and "open": a redirect
 * to a presigned URL like `/raw/{name}`, but no view is counted, so `maxViews` is never used up and
 * an expired or exhausted file can still be looked at by its owner. Anyone else: 404. HEAD gets a
 * URL signed for HEAD, as on `/raw/{name}`.
 */
export const handler = defineHandler(async (request) => {
  const { user } = await authenticate(request);
  const file = requireFile(await getFile(user.id, pathId(request, 'id', FILE_ID)));
  return {
    statusCode: 302,
    headers: {
      ...BASE_HEADERS,
      location: await presignFile(file, { method: request.method === 'HEAD' ? 'HEAD' : 'GET' }),
    },
  };
});
