import { FILE_PREFIX } from '#shared/db/keys/files';

/** A folder (issue 35, folders/store.ts) in its owner's partition, sorted by its time-ordered id. */
export const FOLDER_PREFIX = 'FOLDER#';

export const folderKey = (userId: string, folderId: string) => ({
  pk: `USER#${userId}`,
  sk: `${FOLDER_PREFIX}${folderId}`,
});

/**
 * A folder's own partition: its owner (`sk` FOLDER, what `/folder/{id}` and an anonymous upload find
 * it by) and one member item per file in it (`sk` FILE#<file id>), so a folder's files in id order
 * are one Query of this partition, whatever the size of the owner's library.
 */
export const folderOwnerKey = (folderId: string) => ({ pk: `FOLDER#${folderId}`, sk: 'FOLDER' });

export const folderMemberKey = (folderId: string, fileId: string) => ({
  pk: `FOLDER#${folderId}`,
  sk: `${FILE_PREFIX}${fileId}`,
});
