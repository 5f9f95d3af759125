import { whileTimeLeft } from '#shared/accounts/deletion';
import { authenticate } from '#shared/auth/authenticate';
import { invalid, notFound } from '#shared/errors';
import { moveFile } from '#shared/files/record/folder-moves';
import { deleteFolder } from '#shared/folders/deletion';
import { toFolderResource } from '#shared/folders/model';
import { requireFolder } from '#shared/folders/store';
import { defineHandler } from '#shared/http/handler';
import { readJson } from '#shared/http/request';
import { json } from '#shared/http/response';
import { deleteFolderSchema, FOLDER_ID } from '#shared/validation/folders/schemas';
import { FILE_ID, pathId } from '#shared/validation/ids';

/**
 * `{delete: 'file', id}`: the file out of the folder (answers the folder); `{delete: 'folder'}`: the
 * folder goes, its files stay outside any folder; `{delete: true}`: its files go too, as file DELETEs.
 * Answers the deleted folder, or 202 when the function's time ran out first (the same request goes on).
 */
export const handler = defineHandler(async (request, invocation) => {
  const { user } = await authenticate(request);
  const body = readJson(request, deleteFolderSchema);
  const folderId = pathId(request, 'id', FOLDER_ID);
  const folder = await requireFolder(user.id, folderId);
  if (body.delete === 'file') {
    if (body.id === undefined) throw invalid('id: a file id is required');
    if (!FILE_ID.accepts(body.id)) throw notFound(FILE_ID.notFound);
    await moveFile(user.id, body.id, null, folderId);
    return json(200, toFolderResource(await requireFolder(user.id, folderId)));
  }
  const files = body.delete === true ? 'delete' : 'keep';
  const result = await deleteFolder(user.id, folderId, files, whileTimeLeft(invocation.remainingMs));
  return json(result.done ? 200 : 202, toFolderResource(folder));
});
