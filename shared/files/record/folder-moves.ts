import { retry } from '#shared/db/contention/retry';
import { UpdateBuilder } from '#shared/db/expressions/update';
import { fileKey } from '#shared/db/keys/files';
import { updateIn } from '#shared/db/table-calls';
import { type TransactItem, TransactionConditionFailed, transactAsActiveOwner } from '#shared/db/transact';
import { notFound } from '#shared/errors';
import { requireFile } from '#shared/files/model';
import { FolderClosed, joinFolderItems, leaveFolderItems } from '#shared/files/record/folder-membership';
import { getFile } from '#shared/files/record/store';

/** Moving files between folders (folder-membership.ts says what a file's place in a folder is). */

/**
 * Moves a file into `folderId` (null: out of any folder) in one transaction conditional on the
 * version it was read at (retried on a concurrent change). Answers whether it changed: false when it
 * was there already. A file that is not the caller's (or is gone) is a 404; a closed folder
 * `FolderClosed`. `from`: only a file in that folder moves (else 404), so `{delete: 'file'}` never
 * takes a file out of another folder.
 */
export async function moveFile(
  userId: string,
  fileId: string,
  folderId: string | null,
  from?: string,
): Promise<boolean> {
  return retry(
    { attempts: 5, baseMs: 5, retryable: (error) => error instanceof TransactionConditionFailed },
    async () => {
      const found = await getFile(userId, fileId, { consistent: true });
      // An expired file the sweep has not deleted yet may still leave its folder (a folder's deletion).
      const current = folderId === null && found ? found : requireFile(found);
      if (from !== undefined && current.folderId !== from) throw notFound('file not found');
      if (current.folderId === folderId) return false;
      const update = new UpdateBuilder()
        .set('version', current.version + 1)
        .setOrRemove('folderId', folderId);
      update.when(`${update.name('version')} = ${update.value(current.version)}`);
      const items: TransactItem[] = [
        updateIn(fileKey(userId, fileId), update.build()),
        ...leaveFolderItems(userId, current),
        ...joinFolderItems(userId, [{ ...current, folderId }]),
      ];
      try {
        // A member item outside the owner's partition: only while the owner is not being deleted.
        await transactAsActiveOwner(userId, items);
      } catch (error) {
        const opening = items.length - 1;
        if (
          folderId !== null &&
          error instanceof TransactionConditionFailed &&
          error.failedIndexes.includes(opening)
        ) {
          throw new FolderClosed();
        }
        throw error;
      }
      return true;
    },
  );
}
