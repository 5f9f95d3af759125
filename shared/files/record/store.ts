import { getItem } from '#shared/db/client';
import { retry } from '#shared/db/contention/retry';
import { LIVE_USER } from '#shared/db/expressions/conditions';
import { UpdateBuilder } from '#shared/db/expressions/update';
import { EXPIRY_INDEX, fileKey, fileNameKey, userKey } from '#shared/db/keys';
import { batchGetItems } from '#shared/db/reads';
import { checkIn, deleteIn, putIn, updateIn } from '#shared/db/table-calls';
import { type TransactItem, TransactionConditionFailed, transactWrite } from '#shared/db/transact';
import { notFound, ServiceError, unauthenticated } from '#shared/errors';
import { type FileRecord, isMedia, requireFile } from '#shared/files/model';
import { FOLDER_NOT_FOUND, joinFolderItems, leaveFolderItems } from '#shared/files/record/folder-membership';
import { indexAttributes, SORT_INDEXES } from '#shared/files/record/indexing';
import { fromFileItem, toFileItem } from '#shared/files/record/items';
import { membershipDeletes, membershipWrites, UnknownTag } from '#shared/files/record/memberships';
import { moveNameClaim } from '#shared/files/record/name-claims';
import {
  noPending,
  QuotaExceeded,
  statsOf,
  statsUpdate,
  typeChangeUpdates,
  typeCountUpdates,
} from '#shared/files/record/stats';
import type { QuotaLimits } from '#shared/quota';

/**
 * A file's metadata: create (with its name claim and the counters, in one transaction), read, change
 * and delete. Counters and quota are `stats.ts`, view counting `serve/view-count.ts`, listings `listing/listing.ts`.
 */

/** A public name that another file already has; the caller may pick another and retry. */
export class NameTaken extends Error {
  constructor(readonly fileName: string) {
    super(`a file named ${fileName} already exists`);
    this.name = 'NameTaken';
  }
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
    await transactWrite([checkIn(userKey(userId), { ConditionExpression: LIVE_USER }), ...items]);
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
      putIn(toFileItem(userId, file), { ConditionExpression: 'attribute_not_exists(pk)' }),
      putIn(
        { ...fileNameKey(file.name), userId, fileId: file.id },
        { ConditionExpression: 'attribute_not_exists(pk)' },
      ),
    ]),
    // Last, so a failed condition's index still names the file or name claim it is about.
    ...typeCountUpdates(userId, files, 1),
  ];
  const firstFolderItem = items.length;
  items.push(...joinFolderItems(userId, files));
  try {
    await transactAsActiveOwner(userId, items);
  } catch (error) {
    if (!(error instanceof TransactionConditionFailed)) throw error;
    if (error.failedIndexes.includes(0)) throw new QuotaExceeded();
    if (error.failedIndexes.some((index) => index >= firstFolderItem)) throw new FolderClosed();
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
  const item = await getItem(fileKey(userId, fileId), options);
  return item ? fromFileItem(item) : undefined;
}

export interface FileChanges {
  /** A new public name: its claim moves with the file item (`moveNameClaim`). */
  name?: string;
  favorite?: boolean;
  /** Stored as given; how it is served is the download's rule (`presignDownload`), not the client's. */
  type?: string;
  originalName?: string;
  maxViews?: number | null;
  deletesAt?: string | null;
  /** A new password's hash, or null to remove the password. */
  passwordHash?: string | null;
  /** The ids of the owner's tags the file has from now on (each must exist: else `UnknownTag`). */
  tags?: string[];
}

const sameValue = (a: unknown, b: unknown) =>
  Array.isArray(a) && Array.isArray(b) ? a.join() === b.join() : a === b;

/** The indexes whose keys a PATCH moves: updatedAt, deletesAt, name, originalName, type, favorite, expiry. */
const PATCHED_INDEXES = [
  ...(['updatedAt', 'deletesAt', 'name', 'originalName', 'type', 'favorite'] as const).map(
    (field) => SORT_INDEXES[field].index as string,
  ),
  EXPIRY_INDEX,
];

/** Optimistic-lock retries of a file write: the version it was computed from changed meanwhile. */
const versionRetries = {
  attempts: 5,
  baseMs: 5,
  retryable: (error: unknown) => error instanceof TransactionConditionFailed,
};

/**
 * Applies a PATCH. The write is conditional on the version it was computed from and retried on a
 * concurrent change, so no update is lost; a change of `favorite` moves the counters, a new name the
 * name claims, in the same transaction (a name another file has: `NameTaken`). Views are counted with
 * ADD and never bump the version, so downloads do not conflict.
 */
export async function updateFile(userId: string, fileId: string, changes: FileChanges): Promise<FileRecord> {
  return (await changeFile(userId, fileId, changes)).file;
}

/** `updateFile`, saying whether anything changed (a bulk change counts the files it changed). */
export async function changeFile(
  userId: string,
  fileId: string,
  changes: FileChanges,
): Promise<{ file: FileRecord; changed: boolean }> {
  return retry(versionRetries, async () => {
    const current = requireFile(await getFile(userId, fileId, { consistent: true }));
    // Nothing would change (e.g. `password: ""` on a file without one): no write, no new updatedAt.
    if (
      Object.entries(changes).every(([name, value]) => sameValue(current[name as keyof FileChanges], value))
    ) {
      return { file: current, changed: false };
    }
    const next: FileRecord = { ...current, ...changes, updatedAt: new Date().toISOString() };
    next.version = current.version + 1;
    const indexed = indexAttributes(userId, next);
    const { updatedAt, version, name, favorite, originalName, type } = next;
    const update = new UpdateBuilder();
    // What a PATCH can change, and the index keys that follow from it: a sparse order's keys and the
    // expiry index's come and go with the field's value.
    for (const [field, value] of Object.entries({ updatedAt, version, name, favorite, originalName, type })) {
      update.set(field, value);
    }
    update.set('media', indexed.media);
    for (const attribute of ['maxViews', 'deletesAt', 'passwordHash'] as const)
      update.setOrRemove(attribute, next[attribute]);
    update.setOrRemove('tags', next.tags.length === 0 ? null : new Set(next.tags));
    for (const index of PATCHED_INDEXES) {
      update.setOrRemove(`${index}pk`, indexed[`${index}pk`] ?? null);
      update.setOrRemove(`${index}sk`, indexed[`${index}sk`] ?? null);
    }
    const condition = `${update.name('version')} = ${update.value(current.version)}`;
    const items: TransactItem[] = [
      updateIn(fileKey(userId, fileId), { ...update.build(), ConditionExpression: condition }),
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
    const claimIndex = items.length;
    const renamed = next.name !== current.name;
    if (renamed) items.push(...moveNameClaim(userId, fileId, current.name, next.name));
    const typeCounts = typeChangeUpdates(userId, current.type, next.type);
    items.push(...typeCounts);
    const membershipsFrom = items.length;
    items.push(...membershipWrites(userId, current, next));
    const tagged = items.length > membershipsFrom;
    try {
      // An ADD to the counters, a name claim or a membership would outlive a deletion: only for an active owner.
      const creates = countersChange || renamed || typeCounts.length > 0 || tagged;
      await (creates ? transactAsActiveOwner(userId, items) : transactWrite(items));
    } catch (error) {
      // A moved version is retried first: the name may be this file's own by now.
      const failed = error instanceof TransactionConditionFailed ? error.failedIndexes : [];
      if (failed.includes(0)) throw error;
      if (failed.some((index) => index >= membershipsFrom)) throw new UnknownTag();
      throw renamed && failed.includes(claimIndex) ? new NameTaken(next.name) : error;
    }
    return { file: { ...next, views: current.views }, changed: true };
  });
}

/** The folder a file was to go into cannot take files (gone, or being deleted). */
export class FolderClosed extends ServiceError {
  constructor() {
    super('not_found', FOLDER_NOT_FOUND);
  }
}

/** Deletes a file's metadata, its name claim, its folder membership and its share of the counters, atomically. */
export async function deleteFileRecord(userId: string, fileId: string): Promise<FileRecord> {
  const deleted = await deleteFileRecordIf(userId, fileId, () => true);
  if (!deleted) throw notFound('file not found');
  return deleted;
}

/**
 * Deletes a file as `deleteFileRecord` does while `applies` holds for its current version: the write
 * is conditional on that version, so a change in between (a new `deletesAt`) is read again and
 * judged again. Undefined when the file is gone or no longer applies.
 */
export async function deleteFileRecordIf(
  userId: string,
  fileId: string,
  applies: (file: FileRecord) => boolean,
): Promise<FileRecord | undefined> {
  return retry(versionRetries, async () => {
    const current = await getFile(userId, fileId, { consistent: true });
    if (!current || !applies(current)) return undefined;
    await transactAsActiveOwner(userId, [
      deleteIn(fileKey(userId, fileId), {
        ConditionExpression: 'version = :expected',
        ExpressionAttributeValues: { ':expected': current.version },
      }),
      deleteIn(fileNameKey(current.name)),
      statsUpdate(userId, noPending(statsOf([current], -1))),
      ...typeCountUpdates(userId, [current], -1),
      ...leaveFolderItems(userId, current),
      ...membershipDeletes(userId, current),
    ]);
    return current;
  });
}

export async function batchGetFiles(keys: { pk: unknown; sk: unknown }[]): Promise<FileRecord[]> {
  return (await batchGetItems(keys)).map(fromFileItem);
}
