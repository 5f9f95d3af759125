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
  SETTINGS: 'SETTINGS',
  INVITES: 'INVITES',
  FILENAME: 'FILENAME#*',
  THROTTLE: 'THROTTLE#*',
  OAUTHID: 'OAUTHID#*',
  OAUTHFLOW: 'OAUTHFLOW#*',
  PASSKEY: 'PASSKEY#*',
  WEBAUTHN: 'WEBAUTHN#*',
  DELETION: 'DELETIONS',
  GO: 'GO#*',
  LINKVIEWS: 'LINKVIEWS#*',
  METRICS: 'METRICS',
  FOLDER: 'FOLDER#*',
  // Zipline import (issue 40): `ZIPLINE#<kind>` mapping items, import/keys.ts.
  ZIPLINE: 'ZIPLINE#*',
} as const;
export type Partition = keyof typeof PARTITION_PATTERNS;

export const userKey = (userId: string) => ({ pk: `USER#${userId}`, sk: 'USER' });
/**
 * A user deletion under way: one partition of them, so the worker that continues deletions finds
 * each with one query. Written with the user's `deletingAt` mark, deleted with the user item.
 */
export const pendingDeletionKey = (userId: string) => ({ pk: 'DELETIONS', sk: `USER#${userId}` });
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
/**
 * Claims an external identity (a provider's account) for one user: written in the transaction that
 * links it, so a provider account signs in to at most one user.
 */
export const oauthIdentityKey = (provider: string, providerId: string) => ({
  pk: `OAUTHID#${provider}#${providerId}`,
  sk: 'OAUTHID',
});
/** A provider sign-in whose callback has been answered (by the hash of its state): never twice. */
export const oauthFlowKey = (stateHash: string) => ({ pk: `OAUTHFLOW#${stateHash}`, sk: 'OAUTHFLOW' });
/**
 * A passkey's credential (issue 15): its public key, signature counter and owner, keyed by the
 * credential id a sign-in presents, so finding its user is one GetItem. Written in the transaction
 * that adds the passkey to its user's list.
 */
export const passkeyKey = (credentialId: string) => ({ pk: `PASSKEY#${credentialId}`, sk: 'PASSKEY' });
/** A WebAuthn challenge handed out and not yet answered (by its hash): consumed by a conditional delete. */
export const webauthnChallengeKey = (challengeHash: string) => ({
  pk: `WEBAUTHN#${challengeHash}`,
  sk: 'WEBAUTHN',
});
/**
 * The instance's run-time settings (issue 38): one item, read by every function that applies one (a
 * grant on this one key) and written by `PATCH /api/server/settings`.
 */
export const settingsKey = { pk: 'SETTINGS', sk: 'SETTINGS' };
/**
 * An invite (issue 38), by its code: registration's conditional use counter is one UpdateItem of this
 * key in the new user's transaction. One partition holds them all, so the admin listing is one Query
 * (invites are made by hand: a few hundred at most, read only by administrators and registrations).
 */
export const inviteKey = (code: string) => ({ pk: 'INVITES', sk: `CODE#${code}` });
export const INVITES_PARTITION = 'INVITES';
/** Exists once the first user has been created; its conditional put decides the setup race. */
export const setupKey = { pk: 'SETUP', sk: 'SETUP' };
/**
 * Spreads ids over `shards` partitions by a hash of their last four characters (the random tail of
 * a ULID or UUID), so an index key shared across users never takes every user's writes.
 */
export function shardOf(id: string, shards: number): number {
  let hash = 0;
  for (const char of id.slice(-4)) hash = (hash * 31 + char.charCodeAt(0)) % 1_000_003;
  return hash % shards;
}

/**
 * The user listing index: every user, in one of a fixed number of partitions by id. It
 * projects only what the listing returns (table.ts), so a login, which changes only `sessions`,
 * writes nothing to it (docs/scale.md).
 */
export const USERS_INDEX = 'gsi12';
/** The listing index's key attributes (`userIndexKey` writes them, the listing queries them). */
export const USERS_INDEX_PARTITION = 'gsi12pk';
export const USERS_INDEX_SORT = 'gsi12sk';
export const USER_SHARDS = 16;
export const userShardPartition = (shard: number) => `USERS#${shard}`;
/**
 * A user's listing-index keys. The sort key leads with the rank of the user's role (0 = highest), so
 * the users a caller may act on (a contiguous band of ranks) are one key range in every shard.
 */
export const userIndexKey = (roleRank: number, userId: string) => ({
  [USERS_INDEX_PARTITION]: userShardPartition(shardOf(userId, USER_SHARDS)),
  [USERS_INDEX_SORT]: `${roleRank}#${userId}`,
});
/**
 * The key attributes the index that listed users before the sharded one (`gsi1`, removed in this
 * version: docs/scale.md) left on user items the upgrade did not reach; the upgrade removes them.
 */
export const RETIRED_USER_INDEX_ATTRIBUTES = ['gsi1pk', 'gsi1sk'] as const;
/** The listing-index sort-key range holding every user whose role rank lies in [from, to]. */
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
/** An index's partition-key and sort-key attributes (every index of the table names them so). */
export const indexPartitionAttribute = (index: string) => `${index}pk`;
export const indexSortAttribute = (index: string) => `${index}sk`;
export const indexKeyAttributes = (index: string) => ({
  pk: indexPartitionAttribute(index),
  sk: indexSortAttribute(index),
});
/** The search fields `byId` projects: the name, original name and type orders' sort keys. */
export const SEARCH_FIELD_ATTRIBUTES = { name: 'gsi5sk', originalName: 'gsi6sk', type: 'gsi8sk' } as const;
/** Partition value of every file index (`FILE_ORDER_INDEXES`). */
export const filesPartition = (userId: string) => `FILES#${userId}`;

/** The ETag of one S3 part of a chunked upload (`n` zero-padded, so the parts sort in order). */
export const chunkPartKey = (userId: string, uploadId: string, n: number) => ({
  pk: `USER#${userId}`,
  sk: `CHUNKPART#${uploadId}#${String(n).padStart(5, '0')}`,
});
/**
 * A chunk of a chunked upload staged as an object until its part is made: its size, by its first
 * byte (13 digits, so the chunks sort in order up to S3's 5 TiB). One item per chunk keeps the
 * upload item the same size whatever the chunking; DynamoDB's TTL removes them.
 */
export const chunkStageKey = (userId: string, uploadId: string, start: number) => ({
  pk: `USER#${userId}`,
  sk: `CHUNK#${uploadId}#${String(start).padStart(13, '0')}`,
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

/** A short link's record in its owner's partition (links/store.ts), sorted by its time-ordered id. */
export const LINK_PREFIX = 'LINK#';
export const linkKey = (userId: string, linkId: string) => ({
  pk: `USER#${userId}`,
  sk: `${LINK_PREFIX}${linkId}`,
});
/** The owner's count of short links, the counter `maxUrls` is enforced on (in each creation's transaction). */
export const linkStatsKey = (userId: string) => ({ pk: `USER#${userId}`, sk: 'LINKSTATS' });
/**
 * What `/go/{name}` reads: one item per name a link answers to (its code, its vanity folded to lower
 * case), holding what the redirect needs, so a redirect is one GetItem. Claims the name across users.
 */
export const linkRouteKey = (name: string) => ({ pk: `GO#${name}`, sk: 'GO' });
/** One of a link's view counters (links/views.ts): shards `0..n-1`, and `max` for a limited link's exact count. */
export const linkViewsKey = (linkId: string, shard: number | 'max') => ({
  pk: `LINKVIEWS#${linkId}#${shard}`,
  sk: 'VIEWS',
});

/**
 * The instance's daily figures (issue 36, metrics/store.ts): one item per UTC day in one partition,
 * so a year of them is one Query. The daily job overwrites its day's item (a second run the same day
 * writes the same key).
 */
export const METRICS_PARTITION = 'METRICS';
export const metricsDayKey = (day: string) => ({ pk: METRICS_PARTITION, sk: `DAY#${day}` });
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
/**
 * A tag (issue 35, docs/tags.md) in its owner's partition, sorted by its time-ordered id; its name
 * claimed per user (lower-cased) by a `TAGNAME#` item written in the same transaction.
 */
export const TAG_PREFIX = 'TAG#';
export const tagKey = (userId: string, tagId: string) => ({
  pk: `USER#${userId}`,
  sk: `${TAG_PREFIX}${tagId}`,
});
export const tagNameKey = (userId: string, name: string) => ({
  pk: `USER#${userId}`,
  sk: `TAGNAME#${name.toLowerCase()}`,
});
/**
 * A file's membership in a tag: one item per (tag, file) in the owner's partition, carrying the
 * file's index attributes under the tag's own index partition (`tagFilesPartition`), so a listing by
 * tag reads the same file indexes as the library's, keyed, page by page.
 */
export const taggedPrefix = (tagId: string) => `TAGGED#${tagId}#`;
export const taggedKey = (userId: string, tagId: string, fileId: string) => ({
  pk: `USER#${userId}`,
  sk: `${taggedPrefix(tagId)}${fileId}`,
});
/** The file index partition of a tag's files (as `filesPartition` is the library's). */
export const tagFilesPartition = (userId: string, tagId: string) => `FILES#${userId}#TAG#${tagId}`;
/** A user's export (issue 36), in their partition, sorted by its time-ordered id. */
export const EXPORT_PREFIX = 'EXPORT#';
export const exportKey = (userId: string, exportId: string) => ({
  pk: `USER#${userId}`,
  sk: `${EXPORT_PREFIX}${exportId}`,
});
/**
 * The user's running export, if any: created with the export on the condition that none runs (or
 * the one that did has outlived its run), deleted when it completes, fails or is deleted.
 */
export const exportRunningKey = (userId: string) => ({ pk: `USER#${userId}`, sk: 'EXPORTRUNNING' });
