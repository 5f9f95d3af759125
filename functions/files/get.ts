import { authenticate } from '#shared/auth/authenticate';
import { requireFile, toFileResource } from '#shared/files/model';
import { findOwnFile } from '#shared/files/record/store';
import { withCountedViews } from '#shared/files/serve/popular-views';
import { defineHandler } from '#shared/http/handler';
import { json } from '#shared/http/response';
import { tagLookup } from '#shared/tags/store';
import { FILE_ID_OR_NAME, pathId } from '#shared/validation/ids';

/** By id or public name (Zipline's), the caller's own files only: another user's is simply not found. */
export const handler = defineHandler(async (request) => {
  const { user } = await authenticate(request);
  const found = requireFile(await findOwnFile(user.id, pathId(request, 'id', FILE_ID_OR_NAME)));
  const [file] = await withCountedViews([found]);
  return json(200, toFileResource(file ?? found, await tagLookup(user.id, [found])));
});
