import { getItem } from '#shared/db/client';
import { LIVE_USER } from '#shared/db/expressions/conditions';
import { UpdateBuilder } from '#shared/db/expressions/update';
import { FOLDER_PREFIX, folderKey, folderOwnerKey } from '#shared/db/keys/folders';
import { userKey } from '#shared/db/keys/users';
import { checkIn, deleteIn, putIn, queryPages, updateItem } from '#shared/db/table-calls';
import { type Carried, TransactionConditionFailed, transactWrite } from '#shared/db/transact';
import { notFound, unauthenticated } from '#shared/errors';
import { newFileId } from '#shared/files/names';
import { FOLDER_NOT_FOUND } from '#shared/files/record/folder-membership';
import type { FolderRecord } from '#shared/folders/model';

/**
 * Folders' items: the folder in its owner's partition (`folderKey`, listed by one Query), and its
 * owner item in the folder's partition (`folderOwnerKey`), written and deleted together.
 */

export const fromFolderItem = (item: Record<string, unknown>): FolderRecord => ({
  id: String(item.id),
  userId: String(item.userId),
  name: String(item.name),
  public: item.public === true,
  allowUploads: item.allowUploads === true,
  createdAt: String(item.createdAt),
  updatedAt: String(item.updatedAt),
  files: Number(item.files ?? 0),
});

export interface FolderFields {
  name: string;
  public: boolean;
  allowUploads: boolean;
}

/** Creates a folder and its owner item, for an owner not being deleted (`carried`: an imported one's past). */
export async function createFolder(
  userId: string,
  fields: FolderFields,
  carried?: Carried<FolderRecord>,
): Promise<FolderRecord> {
  const now = new Date();
  const folder: FolderRecord = {
    id: newFileId(now.getTime()),
    userId,
    ...fields,
    createdAt: carried?.createdAt ?? now.toISOString(),
    updatedAt: now.toISOString(),
    files: 0,
  };
  try {
    await transactWrite([
      checkIn(userKey(userId), { ConditionExpression: LIVE_USER }),
      putIn({ ...folderKey(userId, folder.id), entity: 'FOLDER', ...folder }),
      putIn({ ...folderOwnerKey(folder.id), userId }),
      ...(carried ? carried.extra(folder) : []),
    ]);
  } catch (error) {
    if (error instanceof TransactionConditionFailed && error.failedIndexes.includes(0))
      throw unauthenticated();
    throw error;
  }
  return folder;
}

/** The caller's folders, oldest first (one Query of the owner's partition, a page per 1 MB). */
export async function listFolders(userId: string): Promise<FolderRecord[]> {
  const folders: FolderRecord[] = [];
  const pages = queryPages({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': userKey(userId).pk, ':prefix': FOLDER_PREFIX },
  });
  for await (const page of pages) {
    for (const item of page.Items ?? []) if (item.deleting === undefined) folders.push(fromFolderItem(item));
  }
  return folders;
}

/** The caller's folder; another user's, unknown or being deleted: 404. */
export async function requireFolder(userId: string, folderId: string): Promise<FolderRecord> {
  const item = await getItem(folderKey(userId, folderId), { consistent: true });
  if (!item || item.deleting !== undefined) throw notFound(FOLDER_NOT_FOUND);
  return fromFolderItem(item);
}

/** A folder by id alone (its public page, an upload without a token): undefined when unknown or being deleted. */
export async function findFolder(folderId: string): Promise<FolderRecord | undefined> {
  const owner = await getItem(folderOwnerKey(folderId));
  if (!owner) return undefined;
  const item = await getItem(folderKey(String(owner.userId), folderId));
  return item && item.deleting === undefined ? fromFolderItem(item) : undefined;
}

/** Changes a folder's fields (one conditional UpdateItem: a folder deleted meanwhile is a 404). */
export async function updateFolder(
  userId: string,
  folderId: string,
  changes: Partial<FolderFields>,
): Promise<FolderRecord> {
  const update = new UpdateBuilder();
  for (const [field, value] of Object.entries(changes)) if (value !== undefined) update.set(field, value);
  update.set('updatedAt', new Date().toISOString());
  update.when('attribute_exists(pk) AND attribute_not_exists(deleting)');
  try {
    const result = await updateItem(folderKey(userId, folderId), {
      ...update.build(),
      ReturnValues: 'ALL_NEW',
    });
    return fromFolderItem(result.Attributes ?? {});
  } catch (error) {
    if (error instanceof Error && error.name === 'ConditionalCheckFailedException')
      throw notFound(FOLDER_NOT_FOUND);
    throw error;
  }
}

/**
 * Marks a folder as being deleted: from here it takes no file (moves and uploads into it fail their
 * condition) and is 404 to everyone, while its deletion empties it. Idempotent.
 */
export async function markFolderDeleting(userId: string, folderId: string): Promise<void> {
  const update = new UpdateBuilder().setIfAbsent('deleting', new Date().toISOString());
  update.when('attribute_exists(pk)');
  try {
    await updateItem(folderKey(userId, folderId), update.build());
  } catch (error) {
    if (error instanceof Error && error.name === 'ConditionalCheckFailedException')
      throw notFound(FOLDER_NOT_FOUND);
    throw error;
  }
}

/** Deletes an emptied folder and its owner item; false while files are still in it. */
export async function removeEmptyFolder(userId: string, folderId: string): Promise<boolean> {
  try {
    await transactWrite([
      deleteIn(folderKey(userId, folderId), {
        ConditionExpression: 'attribute_not_exists(#files) OR #files = :zero',
        ExpressionAttributeNames: { '#files': 'files' },
        ExpressionAttributeValues: { ':zero': 0 },
      }),
      deleteIn(folderOwnerKey(folderId)),
    ]);
    return true;
  } catch (error) {
    if (error instanceof TransactionConditionFailed) return false;
    throw error;
  }
}
