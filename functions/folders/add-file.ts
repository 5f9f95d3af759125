import { authenticate } from '#shared/auth/authenticate';
import { notFound } from '#shared/errors';
import { moveFile } from '#shared/files/record/folder-moves';
import { toFolderResource } from '#shared/folders/model';
import { requireFolder } from '#shared/folders/store';
import { defineHandler } from '#shared/http/handler';
import { readJson } from '#shared/http/request';
import { json } from '#shared/http/response';
import { addFileSchema, FOLDER_ID } from '#shared/validation/folders/schemas';
import { FILE_ID, pathId } from '#shared/validation/ids';

/** `PUT {id}`: the caller's file into the caller's folder (moved out of any other); answers the folder. */
export const handler = defineHandler(async (request) => {
  const { user } = await authenticate(request);
  const { id: fileId } = readJson(request, addFileSchema);
  const folderId = pathId(request, 'id', FOLDER_ID);
  await requireFolder(user.id, folderId);
  if (!FILE_ID.accepts(fileId)) throw notFound(FILE_ID.notFound);
  await moveFile(user.id, fileId, folderId);
  return json(200, toFolderResource(await requireFolder(user.id, folderId)));
});
