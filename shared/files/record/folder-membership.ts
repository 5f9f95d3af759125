import { getItem } from '#shared/db/client';
import { UpdateBuilder } from '#shared/db/expressions/update';
import { folderKey, folderMemberKey } from '#shared/db/keys/folders';
import { deleteIn, putIn, updateIn } from '#shared/db/table-calls';
import type { TransactItem } from '#shared/db/transact';
import { invalid } from '#shared/errors';
import type { FileRecord } from '#shared/files/model';

/**
 * A file's place in a folder (issue 35): the file item's `folderId`, a member item in the folder's
 * partition (`folderMemberKey`, what a folder's listing queries) and the folder's `files` counter
 * (its listing's total), always changed together in one transaction. A folder takes files only while
 * it exists and is not being deleted (`deleting`): a move or upload into a folder deleted meanwhile
 * fails its condition and stores nothing.
 */

export const FOLDER_NOT_FOUND = 'folder not found';

/** The condition of a folder that may take files. */
const OPEN_FOLDER = 'attribute_exists(pk) AND attribute_not_exists(deleting)';

/** The folder's counter moved by `delta`; taking files (delta > 0) needs an open folder. */
function folderCounter(userId: string, folderId: string, delta: number): TransactItem {
  const update = new UpdateBuilder().add('files', delta);
  return updateIn(folderKey(userId, folderId), {
    ...update.build(),
    ConditionExpression: delta > 0 ? OPEN_FOLDER : 'attribute_exists(pk)',
  });
}

/**
 * What puts `files` into their folders in the transaction that records them (an upload): a member
 * item each, and one counter update per folder (a transaction updates an item once).
 */
export function joinFolderItems(
  userId: string,
  files: Pick<FileRecord, 'id' | 'folderId'>[],
): TransactItem[] {
  const byFolder = new Map<string, number>();
  const members = files.flatMap((file) => {
    if (file.folderId === null) return [];
    byFolder.set(file.folderId, (byFolder.get(file.folderId) ?? 0) + 1);
    return [putIn({ ...folderMemberKey(file.folderId, file.id), userId })];
  });
  return [...members, ...[...byFolder].map(([folderId, count]) => folderCounter(userId, folderId, count))];
}

/** Whether the caller's folder exists and takes files now (an upload checks before storing bytes). */
export async function isOpenFolder(userId: string, folderId: string): Promise<boolean> {
  const item = await getItem(folderKey(userId, folderId), { consistent: true });
  return item !== undefined && item.deleting === undefined;
}

/** What takes `file` out of its folder in the transaction that deletes it. */
export function leaveFolderItems(userId: string, file: Pick<FileRecord, 'id' | 'folderId'>): TransactItem[] {
  if (file.folderId === null) return [];
  return [deleteIn(folderMemberKey(file.folderId, file.id)), folderCounter(userId, file.folderId, -1)];
}

/**
 * `x-zipline-folder` checked before any byte is stored: the uploader's own folder, open (another
 * user's, unknown or being deleted: 400). The recording transaction checks again (`FolderClosed`).
 */
export async function assertUploadFolder(userId: string, folderId: string | null): Promise<void> {
  if (folderId !== null && !(await isOpenFolder(userId, folderId))) {
    throw invalid('x-zipline-folder: folder not found');
  }
}
