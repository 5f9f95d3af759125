import { getItem } from '#shared/db/client';
import { UpdateBuilder } from '#shared/db/expressions/update';
import { FILE_STATS_PREFIX, fileStatsKey, fileTypeStatsKey } from '#shared/db/keys/files';
import { batchGetItems } from '#shared/db/reads';
import { queryPages, updateIn } from '#shared/db/table-calls';
import type { TransactItem } from '#shared/db/transact';
import { type FileRecord, type FileStats, isMedia } from '#shared/files/model';
import type { QuotaLimits } from '#shared/quota';

/**
 * Per-user file counters (`FILESTATS`): moved in the transaction of every file write, so listings
 * know their totals and the quota is a condition on that write, never a read-then-write.
 */

/**
 * How many writes have moved a counters item (`FILESTATS` or a type's): a recount that read the
 * counters conditions its write on this, so a file write in between (even one that leaves the
 * counts as they were, an upload and a delete) makes it read again.
 */
export const COUNTER_WRITES = 'writes';

/** The counters' change when `files` are added (1) or removed (-1). */
export function statsOf(files: FileRecord[], sign: 1 | -1): FileStats {
  const stats: FileStats = { files: 0, bytes: 0, favorites: 0, media: 0, favoriteMedia: 0 };
  for (const file of files) {
    const media = isMedia(file.type);
    stats.files += sign;
    stats.bytes += sign * file.size;
    if (file.favorite) stats.favorites += sign;
    if (media) stats.media += sign;
    if (file.favorite && media) stats.favoriteMedia += sign;
  }
  return stats;
}

/**
 * A change of the counters item. `files` and `bytes` are what the quota is checked against: the
 * recorded files plus the reservations of pending presigned uploads, which `pendingFiles` and
 * `pendingBytes` also count (so listings can leave them out).
 */
export interface CountersDelta extends FileStats {
  pendingFiles: number;
  pendingBytes: number;
}

export const noPending = (delta: FileStats): CountersDelta => ({
  ...delta,
  pendingFiles: 0,
  pendingBytes: 0,
});

const COUNTERS = [
  'files',
  'bytes',
  'favorites',
  'media',
  'favoriteMedia',
  'pendingFiles',
  'pendingBytes',
] as const satisfies readonly (keyof CountersDelta)[];

/**
 * The counters update of a transaction; with limits it fails when the result would exceed them, with
 * `maxPending` when it would make more than that many uploads pending (and then returns the counters
 * it refused, from which the refusal tells one limit from the other).
 */
export function statsUpdate(
  userId: string,
  delta: CountersDelta,
  limits?: QuotaLimits,
  maxPending?: number,
): TransactItem {
  const limitOf: Partial<Record<keyof CountersDelta, number>> = {
    files: limits?.maxFiles,
    bytes: limits?.maxBytes,
    pendingFiles: maxPending,
  };
  const update = new UpdateBuilder();
  for (const counter of COUNTERS) {
    const limit = limitOf[counter];
    if (limit === undefined) update.add(counter, delta[counter]);
    else update.addUpTo(counter, delta[counter], limit);
  }
  // Every change is counted, so the type recount (infra/type-counts-upgrade.ts) sees one it raced.
  update.add(COUNTER_WRITES, 1);
  return updateIn(fileStatsKey(userId), {
    ...update.build(),
    ...(maxPending === undefined ? {} : { ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const }),
  });
}

/** How a file's type is counted: lower case, as PATCH stores it, so `image/PNG` and `image/png` are one. */
const countedType = (type: string) => type.toLowerCase();

/**
 * The per-type counts' change when `files` are added (1) or removed (-1): one ADD per type whose count
 * moves, to join the transaction of the write (at most 32 items, an upload's files: with their 64
 * file and name items and the two counters items, under DynamoDB's 100).
 */
export function typeCountUpdates(
  userId: string,
  files: Pick<FileRecord, 'type'>[],
  sign: 1 | -1,
): TransactItem[] {
  return typeDeltaUpdates(
    userId,
    files.map((file) => [file.type, sign]),
  );
}

/** The per-type counts' change of a file whose type changes from `before` to `after`. */
export const typeChangeUpdates = (userId: string, before: string, after: string): TransactItem[] =>
  countedType(before) === countedType(after)
    ? []
    : typeDeltaUpdates(userId, [
        [before, -1],
        [after, 1],
      ]);

function typeDeltaUpdates(userId: string, changes: [string, number][]): TransactItem[] {
  const deltas = new Map<string, number>();
  for (const [type, change] of changes)
    deltas.set(countedType(type), (deltas.get(countedType(type)) ?? 0) + change);
  return [...deltas].flatMap(([type, delta]) =>
    delta === 0
      ? []
      : [
          updateIn(
            fileTypeStatsKey(userId, type),
            new UpdateBuilder().set('type', type).add('files', delta).add(COUNTER_WRITES, 1).build(),
          ),
        ],
  );
}

/** A user's counters with the count of each type of their files (types with none left out). */
export interface FileCounters extends FileStats {
  types: Record<string, number>;
}

/**
 * The counters and every type's count in one query of the user's partition (`FILESTATS` and the
 * `FILESTATS#TYPE#` items after it): one page of 0.5 read units for up to ~60 types, never a read
 * of the files themselves.
 */
export async function getFileCounters(userId: string): Promise<FileCounters> {
  const key = fileStatsKey(userId);
  let counters: Record<string, unknown> = {};
  const types: Record<string, number> = {};
  const pages = queryPages({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': key.pk, ':prefix': FILE_STATS_PREFIX },
  });
  for await (const page of pages) {
    for (const item of page.Items ?? []) {
      if (item.sk === key.sk) counters = item;
      else if (typeof item.type === 'string' && Number(item.files) > 0) types[item.type] = Number(item.files);
    }
  }
  return { ...recordedStats(counters), types };
}

/** The counters of recorded files (pending uploads left out). */
export async function getFileStats(userId: string): Promise<FileStats> {
  return recordedStats((await getItem(fileStatsKey(userId))) ?? {});
}

/** What a user's files take: how many, and their bytes. */
export type FileUsage = Pick<FileStats, 'files' | 'bytes'>;

const USAGE_ATTRIBUTES = ['files', 'bytes', 'pendingFiles', 'pendingBytes'];

/**
 * The usage of each user (the users listing's column): their counters in one BatchGetItem per 100
 * users; a user who never stored a file has no counters item and uses nothing.
 */
export async function getFileUsage(userIds: string[]): Promise<Map<string, FileUsage>> {
  const items = await batchGetItems(userIds.map(fileStatsKey), USAGE_ATTRIBUTES);
  const usage = new Map(userIds.map((id): [string, FileUsage] => [id, { files: 0, bytes: 0 }]));
  for (const item of items) {
    const { files, bytes } = recordedStats(item);
    usage.set(String(item.pk).slice('USER#'.length), { files, bytes });
  }
  return usage;
}

/** The counters of recorded files (pending uploads left out), from a counters item. */
export function recordedStats(item: Record<string, unknown>): FileStats {
  return {
    files: Number(item.files ?? 0) - Number(item.pendingFiles ?? 0),
    bytes: Number(item.bytes ?? 0) - Number(item.pendingBytes ?? 0),
    favorites: Number(item.favorites ?? 0),
    media: Number(item.media ?? 0),
    favoriteMedia: Number(item.favoriteMedia ?? 0),
  };
}
