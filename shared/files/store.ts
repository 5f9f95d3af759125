import {
  BatchGetCommand,
  GetCommand,
  QueryCommand,
  type QueryCommandInput,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { documents, tableName } from '#shared/db/client';
import { unlessConditionFails } from '#shared/db/conditions';
import { fileKey, fileNameKey, fileStatsKey, userKey } from '#shared/db/keys';
import { isWorkLeft, retry, WorkLeft } from '#shared/db/retry';
import { TransactionConditionFailed, transactWrite } from '#shared/db/transact';
import { UpdateBuilder } from '#shared/db/update';
import { notFound, ServiceError, unauthenticated } from '#shared/errors';
import { indexAttributes, viewsSortKey } from '#shared/files/indexing';
import { type FileRecord, type FileStats, isMedia } from '#shared/files/model';
import type { QuotaLimits } from '#shared/quota';

export const QUOTA_EXCEEDED = 'this upload would exceed your quota';

/** 413: the quota leaves no room for this write. */
export class QuotaExceeded extends ServiceError {
  constructor() {
    super('too_large', QUOTA_EXCEEDED);
  }
}

/** A public name that another file already has; the caller may pick another and retry. */
export class NameTaken extends Error {
  constructor(readonly fileName: string) {
    super(`a file named ${fileName} already exists`);
    this.name = 'NameTaken';
  }
}

const FILE_ATTRIBUTES = [
  'id',
  'name',
  'originalName',
  'size',
  'type',
  'views',
  'maxViews',
  'favorite',
  'createdAt',
  'updatedAt',
  'deletesAt',
  'downloadAsOriginalName',
  'objectKey',
  'passwordHash',
  'version',
  'thumbnail',
] as const satisfies readonly (keyof FileRecord)[];

export function fromFileItem(item: Record<string, unknown>): FileRecord {
  const file = Object.fromEntries(FILE_ATTRIBUTES.map((name) => [name, item[name]])) as unknown as FileRecord;
  // Absent means "no limit" / "never": a null is never stored, so conditions can use attribute_not_exists.
  file.maxViews ??= null;
  file.deletesAt ??= null;
  file.passwordHash ??= null;
  file.thumbnail ??= null;
  return file;
}

/** The stored item of a file: its record, keys and index attributes (also the benchmark's fill). */
export function toFileItem(userId: string, file: FileRecord) {
  const { maxViews, deletesAt, passwordHash, thumbnail, ...rest } = file;
  return {
    ...fileKey(userId, file.id),
    entity: 'FILE',
    ...rest,
    ...(maxViews === null ? {} : { maxViews }),
    ...(deletesAt === null ? {} : { deletesAt }),
    ...(passwordHash === null ? {} : { passwordHash }),
    ...(thumbnail === null ? {} : { thumbnail }),
    ...indexAttributes(userId, file),
  };
}

function statsOf(files: FileRecord[], sign: 1 | -1): FileStats {
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

/** Checks a quota before any byte is stored; the transaction below is what enforces it. */
export function assertWithinQuota(limits: QuotaLimits, stats: Pick<FileStats, 'files' | 'bytes'>): void {
  if (
    (limits.maxFiles !== undefined && stats.files > limits.maxFiles) ||
    (limits.maxBytes !== undefined && stats.bytes > limits.maxBytes)
  ) {
    throw new QuotaExceeded();
  }
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

const noPending = (delta: FileStats): CountersDelta => ({ ...delta, pendingFiles: 0, pendingBytes: 0 });

export type TransactItem = Parameters<typeof transactWrite>[0][number];

/**
 * The counters update of a transaction; with limits it fails when the result would exceed them, with
 * `maxPending` when it would make more than that many uploads pending.
 */
export function statsUpdate(
  userId: string,
  delta: CountersDelta,
  limits?: QuotaLimits,
  maxPending?: number,
): TransactItem {
  const conditions: string[] = [];
  const values: Record<string, number> = {
    ':files': delta.files,
    ':bytes': delta.bytes,
    ':favorites': delta.favorites,
    ':media': delta.media,
    ':favoriteMedia': delta.favoriteMedia,
    ':pendingFiles': delta.pendingFiles,
    ':pendingBytes': delta.pendingBytes,
  };
  if (limits?.maxFiles !== undefined) {
    conditions.push('(attribute_not_exists(#files) OR #files <= :filesLimit)');
    values[':filesLimit'] = limits.maxFiles - delta.files;
  }
  if (limits?.maxBytes !== undefined) {
    conditions.push('(attribute_not_exists(#bytes) OR #bytes <= :bytesLimit)');
    values[':bytesLimit'] = limits.maxBytes - delta.bytes;
  }
  if (maxPending !== undefined) {
    conditions.push('(attribute_not_exists(#pendingFiles) OR #pendingFiles <= :pendingLimit)');
    values[':pendingLimit'] = maxPending - delta.pendingFiles;
  }
  return {
    Update: {
      TableName: tableName,
      Key: fileStatsKey(userId),
      UpdateExpression:
        'ADD #files :files, #bytes :bytes, favorites :favorites, media :media, favoriteMedia :favoriteMedia, #pendingFiles :pendingFiles, pendingBytes :pendingBytes',
      ExpressionAttributeNames: { '#files': 'files', '#bytes': 'bytes', '#pendingFiles': 'pendingFiles' },
      ExpressionAttributeValues: values,
      ...(conditions.length ? { ConditionExpression: conditions.join(' AND ') } : {}),
    },
  };
}

/**
 * Runs a file transaction that can create items in the owner's partition, together with a check
 * that the owner exists and its deletion has not begun. The deletion marks the user before it reads
 * the partition, so such a write either lands before the mark (and the deletion finds it) or fails:
 * a request authenticated just before the mark gets the 401 its next request would get. Other
 * failed conditions are reported with the indexes of `items`.
 */
export async function transactAsActiveOwner(userId: string, items: TransactItem[]): Promise<void> {
  try {
    await transactWrite([
      {
        ConditionCheck: {
          TableName: tableName,
          Key: userKey(userId),
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(deletingAt)',
        },
      },
      ...items,
    ]);
  } catch (error) {
    if (!(error instanceof TransactionConditionFailed)) throw error;
    if (error.failedIndexes.includes(0)) throw unauthenticated();
    throw new TransactionConditionFailed(error.failedIndexes.map((index) => index - 1));
  }
}

/**
 * Records new files: each file item, the claim on its public name and the owner's counters, in one
 * transaction that also enforces the quota. `extra` joins the same transaction (completing a
 * presigned upload deletes its pending item there, so an upload completes once). Files whose room
 * was `reserved` (presigned uploads, counted when they started) move from pending to recorded
 * instead, with no quota check left to fail.
 */
export async function insertFiles(
  userId: string,
  files: FileRecord[],
  quota: QuotaLimits | 'reserved',
  extra: TransactItem[] = [],
): Promise<void> {
  const added = statsOf(files, 1);
  const items: TransactItem[] = [
    quota === 'reserved'
      ? statsUpdate(userId, {
          ...added,
          files: 0,
          bytes: 0,
          pendingFiles: -added.files,
          pendingBytes: -added.bytes,
        })
      : statsUpdate(userId, noPending(added), quota),
    ...extra,
    ...files.flatMap((file) => [
      {
        Put: {
          TableName: tableName,
          Item: toFileItem(userId, file),
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      {
        Put: {
          TableName: tableName,
          Item: { ...fileNameKey(file.name), userId, fileId: file.id },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    ]),
  ];
  try {
    await transactAsActiveOwner(userId, items);
  } catch (error) {
    if (!(error instanceof TransactionConditionFailed)) throw error;
    if (error.failedIndexes.includes(0)) throw new QuotaExceeded();
    const firstFile = 1 + extra.length;
    const nameIndex = error.failedIndexes.find(
      (index) => index >= firstFile && (index - firstFile) % 2 === 1,
    );
    if (nameIndex !== undefined) {
      throw new NameTaken((files[(nameIndex - firstFile - 1) / 2] as FileRecord).name);
    }
    throw error;
  }
}

export async function getFile(
  userId: string,
  fileId: string,
  options: { consistent?: boolean } = {},
): Promise<FileRecord | undefined> {
  const result = await documents.send(
    new GetCommand({
      TableName: tableName,
      Key: fileKey(userId, fileId),
      ConsistentRead: options.consistent,
    }),
  );
  return result.Item ? fromFileItem(result.Item) : undefined;
}

/** The counters of recorded files (pending uploads left out). */
export async function getFileStats(userId: string): Promise<FileStats> {
  const result = await documents.send(new GetCommand({ TableName: tableName, Key: fileStatsKey(userId) }));
  const item = result.Item ?? {};
  return {
    files: Number(item.files ?? 0) - Number(item.pendingFiles ?? 0),
    bytes: Number(item.bytes ?? 0) - Number(item.pendingBytes ?? 0),
    favorites: Number(item.favorites ?? 0),
    media: Number(item.media ?? 0),
    favoriteMedia: Number(item.favoriteMedia ?? 0),
  };
}

export interface FileChanges {
  favorite?: boolean;
  /** Stored as given; how it is served is the download's rule (`presignDownload`), not the client's. */
  type?: string;
  originalName?: string;
  maxViews?: number | null;
  deletesAt?: string | null;
  /** A new password's hash, or null to remove the password. */
  passwordHash?: string | null;
}

/** Optimistic-lock retries of a file write: the version it was computed from changed meanwhile. */
const versionRetries = {
  attempts: 5,
  baseMs: 5,
  retryable: (error: unknown) => error instanceof TransactionConditionFailed,
};

/**
 * Applies a PATCH. The write is conditional on the version it was computed from and retried on a
 * concurrent change, so no update is lost; a change of `favorite` moves the counters in the same
 * transaction. Views are counted with ADD and never bump the version, so downloads do not conflict.
 */
export async function updateFile(userId: string, fileId: string, changes: FileChanges): Promise<FileRecord> {
  return retry(versionRetries, async () => {
    const current = await getFile(userId, fileId, { consistent: true });
    if (!current) throw notFound('file not found');
    // Nothing would change (e.g. `password: ""` on a file without one): no write, no new updatedAt.
    if (Object.entries(changes).every(([name, value]) => current[name as keyof FileChanges] === value)) {
      return current;
    }
    const next: FileRecord = { ...current, ...changes, updatedAt: new Date().toISOString() };
    next.version = current.version + 1;
    const indexes = indexAttributes(userId, next);
    const update = new UpdateBuilder()
      .set('updatedAt', next.updatedAt)
      .set('version', next.version)
      .set('favorite', next.favorite)
      .set('originalName', next.originalName)
      .set('type', next.type)
      .set('media', indexes.media)
      .set('gsi3sk', indexes.gsi3sk)
      .set('gsi4sk', indexes.gsi4sk)
      .set('gsi6sk', indexes.gsi6sk)
      .set('gsi8sk', indexes.gsi8sk)
      .set('gsi10sk', indexes.gsi10sk)
      .setOrRemove('maxViews', next.maxViews)
      .setOrRemove('deletesAt', next.deletesAt)
      .setOrRemove('passwordHash', next.passwordHash);
    const condition = `${update.name('version')} = ${update.value(current.version)}`;
    const items: TransactItem[] = [
      {
        Update: {
          TableName: tableName,
          Key: fileKey(userId, fileId),
          ...update.build(),
          ConditionExpression: condition,
        },
      },
    ];
    // A favourite toggle or a type change between media and other moves the filter counters.
    const countersChange = current.favorite !== next.favorite || isMedia(current.type) !== isMedia(next.type);
    if (countersChange) {
      const delta = statsOf([next], 1);
      const removed = statsOf([current], -1);
      items.push(
        statsUpdate(
          userId,
          noPending({
            files: 0,
            bytes: 0,
            favorites: delta.favorites + removed.favorites,
            media: delta.media + removed.media,
            favoriteMedia: delta.favoriteMedia + removed.favoriteMedia,
          }),
        ),
      );
    }
    // An ADD to the counters would recreate them behind a deletion: only for an active owner.
    await (countersChange ? transactAsActiveOwner(userId, items) : transactWrite(items));
    return { ...next, views: current.views };
  });
}

/** Deletes a file's metadata, its name claim and its share of the counters, atomically. */
export async function deleteFileRecord(userId: string, fileId: string): Promise<FileRecord> {
  return retry(versionRetries, async () => {
    const current = await getFile(userId, fileId, { consistent: true });
    if (!current) throw notFound('file not found');
    await transactAsActiveOwner(userId, [
      {
        Delete: {
          TableName: tableName,
          Key: fileKey(userId, fileId),
          ConditionExpression: 'version = :expected',
          ExpressionAttributeValues: { ':expected': current.version },
        },
      },
      { Delete: { TableName: tableName, Key: fileNameKey(current.name) } },
      statsUpdate(userId, noPending(statsOf([current], -1))),
    ]);
    return current;
  });
}

/** Who published `name`, and which of their files it is; undefined for a name nobody has. */
export async function findNameClaim(name: string): Promise<{ userId: string; fileId: string } | undefined> {
  const claim = await documents.send(new GetCommand({ TableName: tableName, Key: fileNameKey(name) }));
  if (!claim.Item) return undefined;
  return { userId: String(claim.Item.userId), fileId: String(claim.Item.fileId) };
}

/**
 * The file published under `name` when a download would be served now (known, not past its
 * `deletesAt`, views left), without counting a view; undefined otherwise.
 */
export async function findDownloadable(name: string, now = new Date()): Promise<FileRecord | undefined> {
  const claim = await findNameClaim(name);
  return claim && downloadableFile(claim.userId, claim.fileId, now);
}

/** The file when a download of it would be served now, without counting a view. */
export async function downloadableFile(
  userId: string,
  fileId: string,
  now = new Date(),
): Promise<FileRecord | undefined> {
  const file = await getFile(userId, fileId);
  if (!file) return undefined;
  if (file.maxViews !== null && file.views >= file.maxViews) return undefined;
  if (file.deletesAt !== null && file.deletesAt <= now.toISOString()) return undefined;
  return file;
}

/**
 * Counts one view of the file published under `name`, refusing (undefined) a file that is unknown,
 * past its `deletesAt`, out of views, or whose password hash is not `passwordHash`.
 */
export async function countView(
  name: string,
  passwordHash: string | null,
  now = new Date(),
): Promise<FileRecord | undefined> {
  const claim = await findNameClaim(name);
  return claim && countFileView(claim.userId, claim.fileId, passwordHash, now);
}

/**
 * Counts one view of a file (a download or a view page), refusing (undefined) a file that is gone,
 * past its `deletesAt`, out of views, or whose password hash is not `passwordHash` (null: a file
 * without a password; so a password set meanwhile is never bypassed). The increment is a single
 * conditional ADD, so concurrent views never exceed `maxViews`; the views index entry follows in a
 * second write that only the latest count can make.
 */
export async function countFileView(
  userId: string,
  fileId: string,
  passwordHash: string | null,
  now = new Date(),
): Promise<FileRecord | undefined> {
  const result = await unlessConditionFails(
    documents.send(
      new UpdateCommand({
        TableName: tableName,
        Key: fileKey(userId, fileId),
        UpdateExpression: 'ADD #views :one',
        ConditionExpression: `attribute_exists(pk) AND (attribute_not_exists(maxViews) OR #views < maxViews) AND (attribute_not_exists(deletesAt) OR deletesAt > :now) AND ${passwordHash === null ? 'attribute_not_exists(passwordHash)' : 'passwordHash = :passwordHash'}`,
        ExpressionAttributeNames: { '#views': 'views' },
        ExpressionAttributeValues: {
          ':one': 1,
          ':now': now.toISOString(),
          ...(passwordHash === null ? {} : { ':passwordHash': passwordHash }),
        },
        ReturnValues: 'ALL_NEW',
      }),
    ),
  );
  if (!result) return undefined;
  const updated = fromFileItem(result.Attributes ?? {});
  // A later view already wrote a newer count; its own second write positions the file.
  await unlessConditionFails(
    documents.send(
      new UpdateCommand({
        TableName: tableName,
        Key: fileKey(userId, fileId),
        UpdateExpression: 'SET gsi9sk = :sortKey',
        ConditionExpression: '#views = :views',
        ExpressionAttributeNames: { '#views': 'views' },
        ExpressionAttributeValues: {
          ':sortKey': viewsSortKey(updated.views, fileId),
          ':views': updated.views,
        },
      }),
    ),
  );
  return updated;
}

/** Items per BatchGetItem, and how many of those run at once. */
const BATCH_GET_SIZE = 100;
const BATCH_GET_CONCURRENCY = 8;

/**
 * Reads items by key in batches of 100 (8 at a time), retrying what DynamoDB leaves unprocessed.
 * Returns the items found, in key order; `attributes` limits what is sent back.
 */
export async function batchGetItems(
  keys: { pk: unknown; sk: unknown }[],
  attributes?: string[],
): Promise<Record<string, unknown>[]> {
  const found = new Map<string, Record<string, unknown>>();
  const batches: Record<string, unknown>[][] = [];
  for (let offset = 0; offset < keys.length; offset += BATCH_GET_SIZE) {
    batches.push(keys.slice(offset, offset + BATCH_GET_SIZE).map(({ pk, sk }) => ({ pk, sk })));
  }
  const projection = attributes
    ? {
        ProjectionExpression: ['pk', 'sk', ...attributes].map((_, index) => `#p${index}`).join(', '),
        ExpressionAttributeNames: Object.fromEntries(
          ['pk', 'sk', ...attributes].map((name, index) => [`#p${index}`, name]),
        ),
      }
    : {};
  const readBatch = async (batch: Record<string, unknown>[]) => {
    let pending = batch;
    // Unprocessed keys are read again until none is left.
    await retry({ attempts: Number.POSITIVE_INFINITY, baseMs: 20, retryable: isWorkLeft }, async () => {
      const result = await documents.send(
        new BatchGetCommand({ RequestItems: { [tableName]: { Keys: pending, ...projection } } }),
      );
      for (const item of result.Responses?.[tableName] ?? []) found.set(String(item.sk), item);
      pending = result.UnprocessedKeys?.[tableName]?.Keys ?? [];
      if (pending.length > 0) throw new WorkLeft();
    });
  };
  let next = 0;
  const worker = async () => {
    while (next < batches.length) await readBatch(batches[next++] as Record<string, unknown>[]);
  };
  await Promise.all(Array.from({ length: Math.min(BATCH_GET_CONCURRENCY, batches.length) }, worker));
  return keys.flatMap(({ sk }) => {
    const item = found.get(String(sk));
    return item ? [item] : [];
  });
}

export async function batchGetFiles(keys: { pk: unknown; sk: unknown }[]): Promise<FileRecord[]> {
  return (await batchGetItems(keys)).map(fromFileItem);
}

/** One page of a query, as DynamoDB returns it (the listing code walks these). */
export async function queryPage(input: Omit<QueryCommandInput, 'TableName'>) {
  return documents.send(new QueryCommand({ TableName: tableName, ...input }));
}
