/** Key builders: the only place that knows how entities map onto the generic pk/sk/gsi attributes. */
export const userKey = (userId: string) => ({ pk: `USER#${userId}`, sk: 'USER' });
export const usernameKey = (username: string) => ({
  pk: `USERNAME#${username.toLowerCase()}`,
  sk: 'USERNAME',
});
export const avatarChunkKey = (userId: string, index: number) => ({
  pk: `USER#${userId}`,
  sk: `AVATAR#${index}`,
});
/** Exists once the first user has been created; its conditional put decides the setup race. */
export const setupKey = { pk: 'SETUP', sk: 'SETUP' };
export const USERS_INDEX = 'gsi1';
export const USERS_PARTITION = 'USERS';
/** A file's metadata lives in its owner's partition, sorted by its time-ordered id. */
export const FILE_PREFIX = 'FILE#';
export const fileKey = (userId: string, fileId: string) => ({
  pk: `USER#${userId}`,
  sk: `${FILE_PREFIX}${fileId}`,
});
/** Per-user file counters (count, bytes, per filter), updated in the transaction of every file write. */
export const fileStatsKey = (userId: string) => ({ pk: `USER#${userId}`, sk: 'FILESTATS' });
/** A pending presigned upload; expires through the table's TTL when never completed. */
export const uploadKey = (userId: string, uploadId: string) => ({
  pk: `USER#${userId}`,
  sk: `UPLOAD#${uploadId}`,
});
/**
 * Public file names are unique across users (they form the download URL); this item claims one and
 * points at the file. It is the only file item outside the owner's partition: it carries `userId`,
 * and the owner's file items carry the name, so deleting a user's files deletes these too.
 */
export const fileNameKey = (name: string) => ({ pk: `FILENAME#${name}`, sk: 'FILENAME' });
/** Partition value of every file index (gsi2..gsi10). */
export const filesPartition = (userId: string) => `FILES#${userId}`;
