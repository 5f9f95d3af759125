import { shardOf } from '#shared/db/keys/partitions';

/** The keys of files, their counters and name claims, and the file indexes (each order's and the expiry index). */

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

/**
 * A user's count of files of one type (`sortTypeCount`), an item per type next to the counters so the
 * counters item stays small however many types a user stores; one query (`begins_with FILESTATS`)
 * reads the counters and every type's count together.
 */
export const FILE_STATS_PREFIX = 'FILESTATS';

export const fileTypeStatsKey = (userId: string, type: string) => ({
  pk: `USER#${userId}`,
  sk: `${FILE_STATS_PREFIX}#TYPE#${type}`,
});

/**
 * Public file names are unique across users (they form the download URL); this item claims one and
 * points at the file. It is the only file item outside the owner's partition: it carries `userId`,
 * and the owner's file items carry the name, so deleting a user's files deletes these too.
 */
export const fileNameKey = (name: string) => ({ pk: `FILENAME#${name}`, sk: 'FILENAME' });

/**
 * The file indexes, named by the order of `GET /api/user/files` each serves (files/record/indexing.ts maps
 * the orders onto them; table.ts defines them): partitioned by `filesPartition`, each with its own
 * `<index>pk`/`<index>sk` attributes. `byId` also serves the search (it projects the search fields).
 */
export const FILE_ORDER_INDEXES = {
  byId: 'gsi2',
  byUpdatedAt: 'gsi3',
  byDeletesAt: 'gsi4',
  byName: 'gsi5',
  byOriginalName: 'gsi6',
  bySize: 'gsi7',
  byType: 'gsi8',
  byViews: 'gsi9',
  byFavorite: 'gsi10',
} as const;

export type FileOrderIndex = (typeof FILE_ORDER_INDEXES)[keyof typeof FILE_ORDER_INDEXES];

/** The search fields `byId` projects: the name, original name and type orders' sort keys. */
export const SEARCH_FIELD_ATTRIBUTES = { name: 'gsi5sk', originalName: 'gsi6sk', type: 'gsi8sk' } as const;

/** Partition value of every file index (`FILE_ORDER_INDEXES`). */
export const filesPartition = (userId: string) => `FILES#${userId}`;

/**
 * The expiry index: every file with a `deletesAt`, and nothing else (sparse), sorted by that
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
  return { gsi11pk: expiryPartition(shardOf(fileId, EXPIRY_SHARDS)), gsi11sk: `${deletesAt}\u0001${fileId}` };
}

/** The sort-key bound below which every entry is due at `now` (ISO): `deletesAt <= now`. */
export const expiryDueBefore = (now: string) => `${now}\u0002`;
