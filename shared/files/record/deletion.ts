import { retry } from '#shared/db/contention/retry';
import { fileKey, fileNameKey } from '#shared/db/keys/files';
import { deleteIn } from '#shared/db/table-calls';
import { transactAsActiveOwner } from '#shared/db/transact';
import { notFound } from '#shared/errors';
import type { FileRecord } from '#shared/files/model';
import { leaveFolderItems } from '#shared/files/record/folder-membership';
import { membershipDeletes } from '#shared/files/record/memberships';
import { noPending, statsOf, statsUpdate, typeCountUpdates } from '#shared/files/record/stats';
import { getFile, versionRetries } from '#shared/files/record/store';

/** Deletes a file's metadata, its name claim, its folder membership and its share of the counters, atomically. */
export async function deleteFileRecord(userId: string, fileId: string): Promise<FileRecord> {
  const deleted = await deleteFileRecordIf(userId, fileId, () => true);
  if (!deleted) throw notFound('file not found');
  return deleted;
}

/**
 * Deletes a file as `deleteFileRecord` does while `applies` holds for its current version: the write
 * is conditional on that version, so a change in between (a new `deletesAt`) is read again and
 * judged again. Undefined when the file is gone or no longer applies.
 */
export async function deleteFileRecordIf(
  userId: string,
  fileId: string,
  applies: (file: FileRecord) => boolean,
): Promise<FileRecord | undefined> {
  return retry(versionRetries, async () => {
    const current = await getFile(userId, fileId, { consistent: true });
    if (!current || !applies(current)) return undefined;
    await transactAsActiveOwner(userId, [
      deleteIn(fileKey(userId, fileId), {
        ConditionExpression: 'version = :expected',
        ExpressionAttributeValues: { ':expected': current.version },
      }),
      deleteIn(fileNameKey(current.name)),
      statsUpdate(userId, noPending(statsOf([current], -1))),
      ...typeCountUpdates(userId, [current], -1),
      ...leaveFolderItems(userId, current),
      ...membershipDeletes(userId, current),
    ]);
    return current;
  });
}
