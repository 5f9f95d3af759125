import { authenticate } from '#shared/auth/authenticate';
import { hashOptionalPassword } from '#shared/auth/password';
import { requireFile, toFileResource } from '#shared/files/model';
import { type FileChanges, getFile, updateFile } from '#shared/files/record/store';
import { defineHandler } from '#shared/http/handler';
import { readJson } from '#shared/http/request';
import { json } from '#shared/http/response';
import { patchFileSchema, readFilePassword } from '#shared/validation/files';
import { FILE_ID, pathId } from '#shared/validation/ids';

export const handler = defineHandler(async (request) => {
  const { user } = await authenticate(request);
  // `tags` passed validation only where it changes nothing.
  const { password, tags: _tags, ...fields } = readJson(request, patchFileSchema);
  const fileId = pathId(request, 'id', FILE_ID);
  const changes: FileChanges = { ...fields };
  if (password !== undefined) {
    changes.passwordHash = await hashOptionalPassword(readFilePassword(password, 'password'));
  }
  const file =
    Object.keys(changes).length > 0
      ? await updateFile(user.id, fileId, changes)
      : requireFile(await getFile(user.id, fileId));
  return json(200, toFileResource(file));
});
