import { authenticate } from '#shared/auth/authenticate';
import { requireFile, toFileResource } from '#shared/files/model';
import { getFile } from '#shared/files/record/store';
import { defineHandler } from '#shared/http/handler';
import { json } from '#shared/http/response';
import { FILE_ID, pathId } from '#shared/validation/ids';

/** The key holds the caller's id: another user's file is simply not found. */
export const handler = defineHandler(async (request) => {
  const { user } = await authenticate(request);
  const file = requireFile(await getFile(user.id, pathId(request, 'id', FILE_ID)));
  return json(200, toFileResource(file));
});
