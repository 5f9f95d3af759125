import { forEachConcurrently } from '#shared/concurrency';
import { FOLDER_PREFIX, folderMemberKey, folderOwnerKey } from '#shared/db/keys/folders';
import { deleteItem } from '#shared/db/table-calls';

/** What a user's deletion reads of each item of the partition for `releaseFolders`. */
export const FOLDER_RELEASE_ATTRIBUTES = ['folderId'];

/**
 * A user's deletion (accounts/deletion.ts): the items its folders and files keep outside the user's
 * partition, a folder's owner item and a file's member item, deleted before the partition's items
 * that name them, so a retry still finds them.
 */
export async function releaseFolders(items: Record<string, unknown>[]): Promise<void> {
  const keys = items.flatMap((item) => {
    const sk = String(item.sk);
    if (sk.startsWith(FOLDER_PREFIX)) return [folderOwnerKey(sk.slice(FOLDER_PREFIX.length))];
    if (typeof item.folderId === 'string' && sk.startsWith('FILE#')) {
      return [folderMemberKey(item.folderId, sk.slice('FILE#'.length))];
    }
    return [];
  });
  await forEachConcurrently(keys, 8, async (key) => {
    await deleteItem(key);
  });
}
