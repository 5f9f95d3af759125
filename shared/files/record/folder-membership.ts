import { getItem } from '#shared/db/client';
import { UpdateBuilder } from '#shared/db/expressions/update';
import { folderFilesPartition } from '#shared/db/keys/folder-files';
import { folderKey, folderMemberKey } from '#shared/db/keys/folders';
import { deleteIn, putIn, updateIn } from '#shared/db/table-calls';
import type { TransactItem } from '#shared/db/transact';
import { invalid, ServiceError } from '#shared/errors';
import type { FileRecord } from '#shared/files/model';
import { indexAttributes, viewsIndexKey } from '#shared/files/record/indexing';

/**
 * A file's place in a folder (issue 35): the file item's `folderId`, a member item in the folder's
 * partition (`folderMemberKey`) and the folder's `files` counter (its listing's total), always
 * changed together in one transaction. The member item carries the file's flags and index keys under
 * the folder's index partition (`folderFilesPartition`), as a tag membership does under its tag's, so
 * a folder is listed in every order through the file indexes (docs/folders.md); every write of the
 * file that moves its sort keys writes it again (`folderMemberWrites`). A folder takes files only while
 * it exists and is not being deleted (`deleting`): a move or upload into a folder deleted meanwhile
 * fails its condition and stores nothing.
 */

export const FOLDER_NOT_FOUND = 'folder not found';

/** The folder a file was to go into cannot take files (gone, or being deleted). */
export class FolderClosed extends ServiceError {
  constructor() {
    super('not_found', FOLDER_NOT_FOUND);
  }
}

/** The condition of a folder that may take files. */
const OPEN_FOLDER = 'attribute_exists(pk) AND attribute_not_exists(deleting)';

/** The folder's counter moved by `delta`; taking files (delta > 0) needs an open folder. */
function folderCounter(userId: string, folderId: string, delta: number): TransactItem {
  const update = new UpdateBuilder()
    .add('files', delta)
    .when(delta > 0 ? OPEN_FOLDER : 'attribute_exists(pk)');
  return updateIn(folderKey(userId, folderId), update.build());
}

/** A file's member item in its folder: its owner, flags and index keys under the folder's partition. */
export function folderMemberItem(userId: string, folderId: string, file: FileRecord) {
  return {
    ...folderMemberKey(folderId, file.id),
    entity: 'FOLDERFILE',
    userId,
    fileId: file.id,
    favorite: file.favorite,
    views: file.views,
    ...indexAttributes(userId, file, folderFilesPartition(userId, folderId)),
  };
}

/**
 * What puts `files` into their folders in the transaction that records them (an upload) or moves one
 * (`file` as it is, its `folderId` the new folder): a member item each, and one counter update per
 * folder (a transaction updates an item once).
 */
export function joinFolderItems(userId: string, files: FileRecord[]): TransactItem[] {
  const byFolder = new Map<string, number>();
  for (const { folderId } of files) {
    if (folderId !== null) byFolder.set(folderId, (byFolder.get(folderId) ?? 0) + 1);
  }
  const counters = [...byFolder].map(([folderId, count]) => folderCounter(userId, folderId, count));
  const members = files.flatMap((file) =>
    file.folderId === null ? [] : [putIn(folderMemberItem(userId, file.folderId, file))],
  );
  return [...members, ...counters];
}

/** Whether the caller's folder exists and takes files now (an upload checks before storing bytes). */
export async function isOpenFolder(userId: string, folderId: string): Promise<boolean> {
  const item = await getItem(folderKey(userId, folderId), { consistent: true });
  return item !== undefined && item.deleting === undefined;
}

/**
 * The member item of a changed file written again with its new sort keys, in the file's transaction
 * (conditional on the file's version, so the folder it names is the file's folder at that version).
 */
export const folderMemberWrites = (userId: string, file: FileRecord): TransactItem[] =>
  file.folderId === null ? [] : [putIn(folderMemberItem(userId, file.folderId, file))];

/**
 * The views index keys of a file's member item after its `views`-th view, as its tag memberships
 * take them (`membershipViewWrites`): only ever upwards, never re-creating a member that left.
 */
export function folderMemberViewWrites(userId: string, file: FileRecord) {
  if (file.folderId === null) return [];
  const update = new UpdateBuilder().set('views', file.views);
  const keys = viewsIndexKey(userId, file.views, file.id, folderFilesPartition(userId, file.folderId));
  for (const [attribute, value] of Object.entries(keys)) update.set(attribute, value);
  update.when(`attribute_exists(pk) AND ${update.name('views')} < ${update.value(file.views)}`);
  return [{ key: folderMemberKey(file.folderId, file.id), update: update.build() }];
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
