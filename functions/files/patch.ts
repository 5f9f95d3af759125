import { authenticate } from '#shared/auth/authenticate';
import { hashOptionalPassword } from '#shared/auth/password';
import { invalid } from '#shared/errors';
import { requireFile, toFileResource } from '#shared/files/model';
import { findOwnFile } from '#shared/files/record/own-file';
import { type FileChanges, NameTaken, updateFile } from '#shared/files/record/store';
import { defineHandler } from '#shared/http/handler';
import { readJson } from '#shared/http/request';
import { json } from '#shared/http/response';
import { patchFileSchema, readFilePassword } from '#shared/validation/files/schemas';
import { FILE_ID_OR_NAME, pathId } from '#shared/validation/ids';

/** By id or public name, as `GET`. A `name` another file has is a 400, as Zipline's (and an upload's). */
export const handler = defineHandler(async (request) => {
  const { user } = await authenticate(request);
  // `tags` passed validation only where it changes nothing.
  const { password, tags: _tags, ...fields } = readJson(request, patchFileSchema);
  const file = requireFile(await findOwnFile(user.id, pathId(request, 'id', FILE_ID_OR_NAME)));
  const changes: FileChanges = { ...fields };
  if (password !== undefined) {
    changes.passwordHash = await hashOptionalPassword(readFilePassword(password, 'password'));
  }
  if (Object.keys(changes).length === 0) return json(200, toFileResource(file));
  try {
    return json(200, toFileResource(await updateFile(user.id, file.id, changes)));
  } catch (error) {
    throw error instanceof NameTaken ? invalid(error.message) : error;
  }
});
