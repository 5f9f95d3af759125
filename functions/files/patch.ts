import { authenticate } from '#shared/auth/authenticate';
import { toFileResource } from '#shared/files/model';
import { updateFile } from '#shared/files/store';
import { defineHandler } from '#shared/http/handler';
import { requestOrigin } from '#shared/http/origin';
import { readJson } from '#shared/http/request';
import { json } from '#shared/http/response';
import { patchFileSchema } from '#shared/validation/files';
import { FILE_ID, pathId } from '#shared/validation/ids';

export const handler = defineHandler(async (request) => {
  const { user } = await authenticate(request);
  const changes = readJson(request, patchFileSchema);
  const fileId = pathId(request, 'id', FILE_ID);
  const file = await updateFile(user.id, fileId, changes);
  return json(200, toFileResource(file, requestOrigin(request)));
});
