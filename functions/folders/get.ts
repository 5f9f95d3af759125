import { authenticate } from '#shared/auth/authenticate';
import { toFolderResource } from '#shared/folders/model';
import { requireFolder } from '#shared/folders/store';
import { defineHandler } from '#shared/http/handler';
import { json } from '#shared/http/response';
import { FOLDER_ID } from '#shared/validation/folders/schemas';
import { pathId } from '#shared/validation/ids';

/** One of the caller's folders; another user's is a 404 as an unknown one. */
export const handler = defineHandler(async (request) => {
  const { user } = await authenticate(request);
  return json(200, toFolderResource(await requireFolder(user.id, pathId(request, 'id', FOLDER_ID))));
});
