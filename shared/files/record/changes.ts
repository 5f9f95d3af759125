import { retry } from '#shared/db/contention/retry';
import { UpdateBuilder } from '#shared/db/expressions/update';
import { EXPIRY_INDEX, fileKey } from '#shared/db/keys/files';
import { updateIn } from '#shared/db/table-calls';
import {
  type TransactItem,
  TransactionConditionFailed,
  transactAsActiveOwner,
  transactWrite,
} from '#shared/db/transact';
import { type FileRecord, isMedia, requireFile } from '#shared/files/model';
import { indexAttributes, SORT_INDEXES } from '#shared/files/record/indexing';
import { membershipWrites, UnknownTag } from '#shared/files/record/memberships';
import { moveNameClaim, NameTaken } from '#shared/files/record/name-claims';
import { noPending, statsOf, statsUpdate, typeChangeUpdates } from '#shared/files/record/stats';
import { getFile, versionRetries } from '#shared/files/record/store';

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
    update.when(`${update.name('version')} = ${update.value(current.version)}`);
    const items: TransactItem[] = [updateIn(fileKey(userId, fileId), update.build())];
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
