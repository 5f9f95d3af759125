import { authenticate } from '#shared/auth/authenticate';
import { toFileResource } from '#shared/files/model';
import { deleteFile } from '#shared/files/serve/access';
import { defineHandler } from '#shared/http/handler';
import { json } from '#shared/http/response';
import { FILE_ID, pathId } from '#shared/validation/ids';

/** Answers the deleted file, as existing clients expect. */
export const handler = defineHandler(async (request) => {
  const { user } = await authenticate(request);
  const file = await deleteFile(user.id, pathId(request, 'id', FILE_ID));
  return json(200, toFileResource(file));
});
