import { unlessConditionFails } from '#shared/db/expressions/conditions';
import { UpdateBuilder } from '#shared/db/expressions/update';
import { FILE_ORDER_INDEXES, fileKey } from '#shared/db/keys/files';
import { indexKeyAttributes } from '#shared/db/keys/partitions';
import { updateItem } from '#shared/db/table-calls';
import { type FileRecord, isExpired } from '#shared/files/model';
import { viewsIndexKey } from '#shared/files/record/indexing';
import { fromFileItem } from '#shared/files/record/items';
import { membershipViewWrites } from '#shared/files/record/memberships';
import { findNameClaim, STAND_IN_CLAIM } from '#shared/files/record/name-claims';
import { getFile } from '#shared/files/record/store';
import {
  countPopularView,
  isPopular,
  movesViewsOrder,
  POPULAR_AFTER,
  withCountedViews,
} from '#shared/files/serve/popular-views';
import { hasViewsLeft, viewsLeftCondition } from '#shared/views/counters';

/**
 * A file's view counts, for downloads and view pages alike: the rule "views left and not past
 * `deletesAt`" as a predicate on a read file (`isServable`) and as the condition of a count on the
 * file's item (`servableCondition`), both built on the views' owner (shared/views/counters.ts), which
 * also counts a popular file's views (popular-views.ts). The owner's totals follow from the table's
 * stream (shared/views/stream-deltas.ts): a count writes nothing else.
 */

/** A download of `file` would be served now (views left, not past `deletesAt`). */
export const isServable = (file: Pick<FileRecord, 'views' | 'maxViews' | 'deletesAt'>, now = new Date()) =>
  hasViewsLeft(file.views, file.maxViews) && !isExpired(file, now);

/**
 * `isServable` as a write's condition on the stored file, which must also be there and carry exactly
 * `passwordHash` (null: no password; so a password set meanwhile is never bypassed).
 */
function servableCondition(update: UpdateBuilder, passwordHash: string | null, now: Date): string {
  const deletesAt = update.name('deletesAt');
  const password = update.name('passwordHash');
  return [
    'attribute_exists(pk)',
    viewsLeftCondition(update, { attribute: 'maxViews' }),
    `(attribute_not_exists(${deletesAt}) OR ${deletesAt} > ${update.value(now.toISOString())})`,
    passwordHash === null
      ? `attribute_not_exists(${password})`
      : `${password} = ${update.value(passwordHash)}`,
  ].join(' AND ');
}

/** Sets the views index's keys of a file after its `views`-th view (its entry moves up). */
const setViewsIndex = (update: UpdateBuilder, userId: string, views: number, fileId: string) => {
  for (const [attribute, value] of Object.entries(viewsIndexKey(userId, views, fileId)))
    update.set(attribute, value);
  return update;
};

/**
 * A tagged file's memberships take its new count too (one write per tag, only ever upwards), so a
 * listing by tag in views order is the library's order (docs/tags.md).
 */
async function followViews(userId: string, file: FileRecord | undefined): Promise<FileRecord | undefined> {
  if (file) {
    await Promise.all(
      membershipViewWrites(userId, file).map(({ key, update }) =>
        unlessConditionFails(updateItem(key, update)),
      ),
    );
  }
  return file;
}

/** One conditional update of a file item; undefined when its condition fails. */
async function updateFileIf(
  userId: string,
  fileId: string,
  update: UpdateBuilder,
  condition: string,
): Promise<FileRecord | undefined> {
  update.when(condition);
  const result = await unlessConditionFails(
    updateItem(fileKey(userId, fileId), { ...update.build(), ReturnValues: 'ALL_NEW' }),
  );
  return result && fromFileItem(result.Attributes ?? {});
}

/**
 * The file published under `name` when a download would be served now (known, not past its
 * `deletesAt`, views left), without counting a view; undefined otherwise. An unknown name reads as
 * much as a known one (its file at `STAND_IN_CLAIM`): the time taken does not tell them apart.
 */
export async function findDownloadable(name: string, now = new Date()): Promise<FileRecord | undefined> {
  const claim = (await findNameClaim(name)) ?? STAND_IN_CLAIM;
  const file = await getFile(claim.userId, claim.fileId);
  return file && isServable(file, now) ? file : undefined;
}

/**
 * Counts one view of the file published under `name`, refusing (undefined) a file that is unknown,
 * past its `deletesAt`, out of views, or whose password hash is not `passwordHash`. Reads the file
 * first (eventually consistent), so that a popular file's views never write its item.
 */
export async function countView(
  name: string,
  passwordHash: string | null,
  now = new Date(),
): Promise<FileRecord | undefined> {
  const claim = await findNameClaim(name);
  const file = claim && (await getFile(claim.userId, claim.fileId));
  return claim && file && countReadView(claim.userId, file, passwordHash, now);
}

/** Counts one view of a file just read: on its counters when popular, else on its item. */
export const countReadView = (
  userId: string,
  file: FileRecord,
  passwordHash: string | null,
  now = new Date(),
) =>
  isPopular(file)
    ? countPopular(userId, file, passwordHash, now)
    : countFileView(userId, file.id, passwordHash, now);

/**
 * Counts a view of a popular file (`file` as read) on its counters; now and then (`movesViewsOrder`)
 * the file's views-index entry and its tag memberships take its summed count, only ever upwards (its
 * item's `views` stays), so the views order places it by its count.
 */
async function countPopular(userId: string, file: FileRecord, passwordHash: string | null, now: Date) {
  const counted = await countPopularView(userId, file, passwordHash, now);
  if (!counted) return undefined;
  if (movesViewsOrder(counted.counter)) {
    const [summed] = await withCountedViews([file]);
    const views = summed?.views ?? file.views;
    const index = setViewsIndex(new UpdateBuilder(), userId, views, file.id);
    const { sk } = indexKeyAttributes(FILE_ORDER_INDEXES.byViews);
    const entry = index.name(sk);
    const newEntry = index.value(viewsIndexKey(userId, views, file.id)[sk]);
    const moved = await updateFileIf(
      userId,
      file.id,
      index,
      `attribute_exists(pk) AND ${entry} < ${newEntry}`,
    );
    if (moved) await followViews(userId, { ...moved, views });
  }
  return counted.file;
}

/** The item still counts its own views: fewer than `POPULAR_AFTER`. */
const countsOnItem = (update: UpdateBuilder) =>
  `(attribute_not_exists(${update.name('views')}) OR ${update.name('views')} < ${update.value(POPULAR_AFTER)})`;

/**
 * Counts one view of a file on its item (a download or a view page), refusing (undefined) a file
 * that is gone, past its `deletesAt`, out of views, or whose password hash is not `passwordHash`.
 * The increment is a single conditional ADD, so concurrent views never exceed `maxViews`; the views
 * index entry follows in a second write that only the latest count can make. An item that has
 * counted `POPULAR_AFTER` views refuses too: then the file, read again strongly consistently, is
 * counted as a popular one.
 */
export async function countFileView(
  userId: string,
  fileId: string,
  passwordHash: string | null,
  now = new Date(),
): Promise<FileRecord | undefined> {
  const count = new UpdateBuilder().add('views', 1);
  const condition = `${servableCondition(count, passwordHash, now)} AND ${countsOnItem(count)}`;
  const updated = await updateFileIf(userId, fileId, count, condition);
  if (!updated) {
    const file = await getFile(userId, fileId, { consistent: true });
    return file && isPopular(file) ? countPopular(userId, file, passwordHash, now) : undefined;
  }
  // A later view already wrote a newer count; its own second write positions the file.
  const index = setViewsIndex(new UpdateBuilder(), userId, updated.views, fileId);
  await updateFileIf(userId, fileId, index, `${index.name('views')} = ${index.value(updated.views)}`);
  return followViews(userId, updated);
}

/**
 * Counts one view of a file without a password that a view page has just read as `seen`, in one
 * write: the count and its views-index keys set together, on condition that the count is still the
 * one read (and, as every count, that the file is servable and unprotected). If another view came in
 * between, the condition fails and the view is counted as `/raw` counts it (`countFileView`), so
 * concurrent views never pass `maxViews` and none is lost. A popular file is counted on its counters.
 * Undefined when the file may not be viewed.
 */
export async function countSeenView(
  userId: string,
  seen: FileRecord,
  now = new Date(),
): Promise<FileRecord | undefined> {
  if (isPopular(seen)) return countPopular(userId, seen, null, now);
  const views = seen.views + 1;
  const count = setViewsIndex(new UpdateBuilder().set('views', views), userId, views, seen.id);
  const condition = `${count.name('views')} = ${count.value(seen.views)} AND ${servableCondition(count, null, now)}`;
  const counted = await updateFileIf(userId, seen.id, count, condition);
  if (!counted) return countFileView(userId, seen.id, null, now);
  return followViews(userId, counted);
}
