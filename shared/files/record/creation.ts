import { fileNameKey } from '#shared/db/keys/files';
import { putIn } from '#shared/db/table-calls';
import { type TransactItem, TransactionConditionFailed } from '#shared/db/transact';
import type { FileRecord } from '#shared/files/model';
import { joinFolderItems } from '#shared/files/record/folder-membership';
import { toFileItem } from '#shared/files/record/items';
import { noPending, QuotaExceeded, statsOf, statsUpdate, typeCountUpdates } from '#shared/files/record/stats';
import { FolderClosed, NameTaken, transactAsActiveOwner } from '#shared/files/record/store';
import type { QuotaLimits } from '#shared/quota';

/**
 * Records new files: each file item, the claim on its public name and the owner's counters, in one
 * transaction that also enforces the quota. `extra` joins the same transaction (completing a
 * presigned upload deletes its pending item there, so an upload completes once). Files whose room
 * was `reserved` (presigned uploads, counted when they started) move from pending to recorded
 * instead, with no quota check left to fail.
 */
export async function insertFiles(
  userId: string,
  files: FileRecord[],
  quota: QuotaLimits | 'reserved',
  extra: TransactItem[] = [],
): Promise<void> {
  const added = statsOf(files, 1);
  const items: TransactItem[] = [
    quota === 'reserved'
      ? statsUpdate(userId, {
          ...added,
          files: 0,
          bytes: 0,
          pendingFiles: -added.files,
          pendingBytes: -added.bytes,
        })
      : statsUpdate(userId, noPending(added), quota),
    ...extra,
    ...files.flatMap((file) => [
      putIn(toFileItem(userId, file), { ConditionExpression: 'attribute_not_exists(pk)' }),
      putIn(
        { ...fileNameKey(file.name), userId, fileId: file.id },
        { ConditionExpression: 'attribute_not_exists(pk)' },
      ),
    ]),
    // Last, so a failed condition's index still names the file or name claim it is about.
    ...typeCountUpdates(userId, files, 1),
  ];
  const firstFolderItem = items.length;
  items.push(...joinFolderItems(userId, files));
  try {
    await transactAsActiveOwner(userId, items);
  } catch (error) {
    if (!(error instanceof TransactionConditionFailed)) throw error;
    if (error.failedIndexes.includes(0)) throw new QuotaExceeded();
    if (error.failedIndexes.some((index) => index >= firstFolderItem)) throw new FolderClosed();
    const firstFile = 1 + extra.length;
    const nameIndex = error.failedIndexes.find(
      (index) => index >= firstFile && (index - firstFile) % 2 === 1,
    );
    if (nameIndex !== undefined) {
      throw new NameTaken((files[(nameIndex - firstFile - 1) / 2] as FileRecord).name);
    }
    throw error;
  }
}
