import { fileNameKey } from '#shared/db/keys/files';
import { putIn } from '#shared/db/table-calls';
import type { TransactItem } from '#shared/db/transact';
import type { FileRecord } from '#shared/files/model';
import { FolderClosed, joinFolderItems } from '#shared/files/record/folder-membership';
import { toFileItem } from '#shared/files/record/items';
import { NameTaken } from '#shared/files/record/name-claims';
import { noPending, statsOf, statsUpdate, typeCountUpdates } from '#shared/files/record/stats';
import type { UploadWrite } from '#shared/files/reservation/reservation';
import { QuotaExceeded, type QuotaLimits } from '#shared/quota';

/**
 * The write that records new files: each file item, the claim on its public name and the owner's
 * counters, in one transaction that also enforces the quota. `extra` joins the same transaction
 * (completing a reserved upload deletes its pending item there, so an upload completes once). Files
 * whose room was `reserved` (presigned and chunked uploads, counted when they started) move from
 * pending to recorded instead, with no quota check left to fail.
 */
export function creationWrite(
  userId: string,
  files: FileRecord[],
  quota: QuotaLimits | 'reserved',
  extra: TransactItem[] = [],
): UploadWrite {
  const added = statsOf(files, 1);
  const counters =
    quota === 'reserved'
      ? statsUpdate(userId, {
          ...added,
          files: 0,
          bytes: 0,
          pendingFiles: -added.files,
          pendingBytes: -added.bytes,
        })
      : statsUpdate(userId, noPending(added), quota);
  const typeCounts = typeCountUpdates(userId, files, 1);
  const folders = joinFolderItems(userId, files);
  const items: TransactItem[] = [
    counters,
    ...extra,
    ...files.flatMap((file) => [
      putIn(toFileItem(userId, file), { ConditionExpression: 'attribute_not_exists(pk)' }),
      putIn(
        { ...fileNameKey(file.name), userId, fileId: file.id },
        { ConditionExpression: 'attribute_not_exists(pk)' },
      ),
    ]),
    // Last, so a failed condition's index still names the file or name claim it is about.
    ...typeCounts,
  ];
  const firstFolderItem = items.length;
  items.push(...folders);
  const firstFile = 1 + extra.length;
  return {
    items,
    refusal: (failed) => {
      if (failed.includes(0)) return new QuotaExceeded();
      if (failed.some((index) => index >= firstFolderItem)) return new FolderClosed();
      const nameIndex = failed.find((index) => index >= firstFile && (index - firstFile) % 2 === 1);
      if (nameIndex === undefined) return undefined;
      return new NameTaken((files[(nameIndex - firstFile - 1) / 2] as FileRecord).name);
    },
  };
}
