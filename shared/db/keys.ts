import { foldUsername } from '#shared/db/username-forms';

/** Key builders: the only place that knows how entities map onto the generic pk/sk/gsi attributes. */

/**
 * The kinds of partition the table holds, as IAM patterns of their partition keys (IAM's
 * `dynamodb:LeadingKeys`): the stack limits each function's item actions to the kinds it uses.
 */
export const PARTITION_PATTERNS = {
  USER: 'USER#*',
  USERNAME: 'USERNAME#*',
  USERLIKE: 'USERLIKE#*',
  SETUP: 'SETUP',
  FILENAME: 'FILENAME#*',
  THROTTLE: 'THROTTLE#*',
} as const;
export type Partition = keyof typeof PARTITION_PATTERNS;

export const userKey = (userId: string) => ({ pk: `USER#${userId}`, sk: 'USER' });
/** Claims a username in its folded form (`username-forms.ts`): one user per folded name. */
export const usernameKey = (username: string) => ({
  pk: `USERNAME#${foldUsername(username)}`,
  sk: 'USERNAME',
});
/** Where names were claimed before folding (lowercased only); differs only for some non-ASCII names. */
export const legacyUsernameKey = (username: string) => ({
  pk: `USERNAME#${username.toLowerCase()}`,
  sk: 'USERNAME',
});
/** Claims a username's look (the hash of its UTS #39 skeleton): one user per skeleton. */
export const usernameSkeletonKey = (skeletonHash: string) => ({
  pk: `USERLIKE#${skeletonHash}`,
  sk: 'USERLIKE',
});
export const avatarChunkKey = (userId: string, index: number) => ({
  pk: `USER#${userId}`,
  sk: `AVATAR#${index}`,
});
/** Exists once the first user has been created; its conditional put decides the setup race. */
export const setupKey = { pk: 'SETUP', sk: 'SETUP' };
export const USERS_INDEX = 'gsi1';
export const USERS_PARTITION = 'USERS';
/**
 * A user's gsi1 keys. The sort key leads with the rank of the user's role (0 = highest), so the users
 * a caller may act on (a contiguous band of ranks) are one key range: full pages, no filtering.
 */
export const userIndexKey = (roleRank: number, userId: string) => ({
  gsi1pk: USERS_PARTITION,
  gsi1sk: `${roleRank}#${userId}`,
});
/** The gsi1 sort-key range holding every user whose role rank lies in [from, to]. */
export const userIndexRange = (fromRank: number, toRank: number) => ({
  from: `${fromRank}#`,
  // '$' follows '#': the bound lies after every `${toRank}#<id>`.
  to: `${toRank}$`,
});
/**
 * An attempt counter: one item per limited subject (a hashed username, address or user id) and fixed
 * window, so a new window starts from zero without anything having to reset it.
 */
export const throttleKey = (scope: string, subjectHash: string, windowStart: number) => ({
  pk: `THROTTLE#${scope}#${subjectHash}`,
  sk: `WINDOW#${windowStart}`,
});
/** A file's metadata lives in its owner's partition, sorted by its time-ordered id. */
export const FILE_PREFIX = 'FILE#';
export const fileKey = (userId: string, fileId: string) => ({
  pk: `USER#${userId}`,
  sk: `${FILE_PREFIX}${fileId}`,
});
/** The owner and file id a file item's key names (the inverse of `fileKey`). */
export const fileKeyParts = (key: { pk: unknown; sk: unknown }) => ({
  userId: String(key.pk).slice('USER#'.length),
  fileId: String(key.sk).slice(FILE_PREFIX.length),
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

/** The ETag of one S3 part of a chunked upload (`n` zero-padded, so the parts sort in order). */
export const chunkPartKey = (userId: string, uploadId: string, n: number) => ({
  pk: `USER#${userId}`,
  sk: `CHUNKPART#${uploadId}#${String(n).padStart(5, '0')}`,
});
/**
 * A completed upload (presigned or chunked): which file it became, for what its object's key names
 * (the upload) and for a chunked upload's last chunk sent again. Lives a week (DynamoDB's TTL).
 */
export const uploadDoneKey = (userId: string, uploadId: string) => ({
  pk: `USER#${userId}`,
  sk: `UPLOADDONE#${uploadId}`,
});

/**
 * The expiry index (gsi11): every file with a `deletesAt`, and nothing else (sparse), sorted by that
 * time across all users, so the sweep finds what is due without a scan. Spread over a fixed number
 * of partitions by file id, so no one key takes the writes of every user's expiring uploads.
 */
export const EXPIRY_INDEX = 'gsi11';
export const EXPIRY_SHARDS = 8;
const expiryPartition = (shard: number) => `EXPIRY#${shard}`;
export const expiryPartitions = () =>
  Array.from({ length: EXPIRY_SHARDS }, (_, shard) => expiryPartition(shard));
/** A file's expiry-index keys: its shard (from the id's random tail) and `<deletesAt>\u0001<id>`. */
export function expiryIndexKey(fileId: string, deletesAt: string) {
  let hash = 0;
  for (const char of fileId.slice(-4)) hash = (hash * 31 + char.charCodeAt(0)) % 1_000_003;
  return { gsi11pk: expiryPartition(hash % EXPIRY_SHARDS), gsi11sk: `${deletesAt}\u0001${fileId}` };
}
/** The sort-key bound below which every entry is due at `now` (ISO): `deletesAt <= now`. */
export const expiryDueBefore = (now: string) => `${now}\u0002`;
