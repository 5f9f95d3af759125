import { authenticate } from '#shared/auth/authenticate';
import { requireFile, toFileResource } from '#shared/files/model';
import { findOwnFile } from '#shared/files/record/store';
import { deleteFile } from '#shared/files/serve/access';
import { withCountedViews } from '#shared/files/serve/popular-views';
import { defineHandler } from '#shared/http/handler';
import { json } from '#shared/http/response';
import { tagLookup } from '#shared/tags/store';
import { FILE_ID_OR_NAME, pathId } from '#shared/validation/ids';

/** By id or public name, as `GET`. Answers the deleted file, as existing clients expect. */
export const handler = defineHandler(async (request) => {
  const { user } = await authenticate(request);
  const file = requireFile(await findOwnFile(user.id, pathId(request, 'id', FILE_ID_OR_NAME)));
  // A popular file's counters are read before the deletion takes them.
  const [counted] = await withCountedViews([file]);
  const deleted = await deleteFile(user.id, file.id);
  const views = counted?.views ?? deleted.views;
  return json(200, toFileResource({ ...deleted, views }, await tagLookup(user.id, [deleted])));
});
