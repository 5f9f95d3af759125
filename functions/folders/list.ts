import { authenticate } from '#shared/auth/authenticate';
import { toFolderResource } from '#shared/folders/model';
import { listFolders } from '#shared/folders/store';
import { defineHandler } from '#shared/http/handler';
import { json } from '#shared/http/response';

/** The caller's folders, oldest first, as Zipline's list with `noincl` (files: `GET /api/user/files?folder=`). */
export const handler = defineHandler(async (request) => {
  const { user } = await authenticate(request);
  return json(200, (await listFolders(user.id)).map(toFolderResource));
});
