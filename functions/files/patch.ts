import { authenticate } from '#shared/auth/authenticate';
import { requireFile, toFileResource } from '#shared/files/model';
import { getFile, updateFile } from '#shared/files/store';
import { defineHandler } from '#shared/http/handler';
import { readJson } from '#shared/http/request';
import { json } from '#shared/http/response';
import { patchFileSchema } from '#shared/validation/files';
import { FILE_ID, pathId } from '#shared/validation/ids';

export const handler = defineHandler(async (request) => {
  const { user } = await authenticate(request);
  // `password` and `tags` passed validation only where they change nothing.
  const { password: _password, tags: _tags, ...changes } = readJson(request, patchFileSchema);
  const fileId = pathId(request, 'id', FILE_ID);
  const file =
    Object.keys(changes).length > 0
      ? await updateFile(user.id, fileId, changes)
      : requireFile(await getFile(user.id, fileId));
  return json(200, toFileResource(file));
});
