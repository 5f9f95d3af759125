import { authenticate } from '#shared/auth/authenticate';
import { notFound } from '#shared/errors';
import { requireFile } from '#shared/files/model';
import { getFile } from '#shared/files/record/store';
import { presignThumbnail, serveFile } from '#shared/files/serve/access';
import { defineHandler } from '#shared/http/handler';
import { redirect, served } from '#shared/http/response';
import { FILE_ID, pathId } from '#shared/validation/ids';

/**
 * The owner's download of one of their files, for the dashboard's previews and "open": served as
 * `/raw/{name}` serves it (the bytes up to 4 MiB, else a redirect), but no view is counted, so `maxViews` is never used up and
 * an expired or exhausted file can still be looked at by its owner. Anyone else: 404. HEAD gets a
 * URL signed for HEAD, as on `/raw/{name}`. On `/api/user/files/{id}/thumbnail` the same for the
 * image's WebP thumbnail (the files grid), 404 while it has none.
 */
export const handler = defineHandler(async (request) => {
  const { user } = await authenticate(request);
  const file = requireFile(await getFile(user.id, pathId(request, 'id', FILE_ID)));
  const head = request.method === 'HEAD';
  if (!request.path.endsWith('/thumbnail')) return served(await serveFile(file, { head }));
  const presigned = presignThumbnail(file, { method: head ? 'HEAD' : 'GET' });
  if (!presigned) throw notFound('this file has no thumbnail');
  return redirect(await presigned);
});
