import { forEachConcurrently } from '#shared/concurrency';
import { FILE_PREFIX } from '#shared/db/keys/files';
import { folderMemberKey } from '#shared/db/keys/folders';
import { queryItems } from '#shared/db/table-calls';
import { ServiceError } from '#shared/errors';
import { moveFile } from '#shared/files/record/folder-moves';
import { deleteFile } from '#shared/files/serve/access';
import { markFolderDeleting, removeEmptyFolder } from '#shared/folders/store';

/**
 * Deleting a folder (`DELETE /api/user/folders/{id}`): `keep` (Zipline's `{delete: 'folder'}`) moves
 * its files out of any folder, `delete` (`{delete: true}`) deletes them as `DELETE
 * /api/user/files/{id}` does (bytes, thumbnail, name, counters, quota). The folder is marked first,
 * so nothing joins it meanwhile, then emptied a page of members at a time, then removed with its
 * owner item once its counter says it is empty. Each file goes in its own transaction; a deletion
 * cut short by the function's time (a folder of tens of thousands of files) answers `done: false`,
 * the folder stays marked (404 to everyone, taking no files) and the same request again goes on.
 */

export type FolderFiles = 'keep' | 'delete';

const PAGE = 100;
const CONCURRENCY = 16;

export async function deleteFolder(
  userId: string,
  folderId: string,
  files: FolderFiles,
  timeLeft: () => boolean,
): Promise<{ done: boolean; files: number }> {
  await markFolderDeleting(userId, folderId);
  let handled = 0;
  for (;;) {
    if (await removeEmptyFolder(userId, folderId)) return { done: true, files: handled };
    if (!timeLeft()) return { done: false, files: handled };
    const page = await queryItems({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': folderMemberKey(folderId, '').pk, ':prefix': FILE_PREFIX },
      ProjectionExpression: 'sk',
      ConsistentRead: true,
      Limit: PAGE,
    });
    const ids = (page.Items ?? []).map((item) => String(item.sk).slice(FILE_PREFIX.length));
    // No member left but the counter not at zero yet: never loop on it.
    if (ids.length === 0) return { done: false, files: handled };
    await forEachConcurrently(ids, CONCURRENCY, async (id) => {
      try {
        if (files === 'delete') await deleteFile(userId, id);
        else await moveFile(userId, id, null, folderId);
        handled++;
      } catch (error) {
        // Deleted or moved out by another request meanwhile: it left the folder all the same.
        if (!(error instanceof ServiceError && error.kind === 'not_found')) throw error;
      }
    });
  }
}
