import { unlessConditionFails } from '#shared/db/expressions/conditions';
import { UpdateBuilder } from '#shared/db/expressions/update';
import { fileKey } from '#shared/db/keys/files';
import { updateItem } from '#shared/db/table-calls';
import { type FileRecord, isExpired } from '#shared/files/model';
import { viewsIndexKey } from '#shared/files/record/indexing';
import { fromFileItem } from '#shared/files/record/items';
import { membershipViewWrites } from '#shared/files/record/memberships';
import { findNameClaim, STAND_IN_CLAIM } from '#shared/files/record/name-claims';
import { getFile } from '#shared/files/record/store';

/**
 * The one owner of view counting, for downloads and view pages alike: the rule "views left and not
 * past `deletesAt`" as a predicate on a read file (`isServable`) and as the condition of every
 * count's write (`servableCondition`), and the counts themselves.
 */

/** A download of `file` would be served now (views left, not past `deletesAt`). */
export const isServable = (file: Pick<FileRecord, 'views' | 'maxViews' | 'deletesAt'>, now = new Date()) =>
  (file.maxViews === null || file.views < file.maxViews) && !isExpired(file, now);

/**
 * `isServable` as a write's condition on the stored file, which must also be there and carry exactly
 * `passwordHash` (null: no password; so a password set meanwhile is never bypassed).
 */
function servableCondition(update: UpdateBuilder, passwordHash: string | null, now: Date): string {
  const views = update.name('views');
  const maxViews = update.name('maxViews');
  const deletesAt = update.name('deletesAt');
  const password = update.name('passwordHash');
  return [
    'attribute_exists(pk)',
    `(attribute_not_exists(${maxViews}) OR ${views} < ${maxViews})`,
    `(attribute_not_exists(${deletesAt}) OR ${deletesAt} > ${update.value(now.toISOString())})`,
    passwordHash === null
      ? `attribute_not_exists(${password})`
      : `${password} = ${update.value(passwordHash)}`,
  ].join(' AND ');
}

/** Sets the views index's keys of a file after its `views`-th view (the first brings it in: sparse). */
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
  const result = await unlessConditionFails(
    updateItem(fileKey(userId, fileId), {
      ...update.build(),
      ConditionExpression: condition,
      ReturnValues: 'ALL_NEW',
    }),
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
 * past its `deletesAt`, out of views, or whose password hash is not `passwordHash`. The increment is
 * a single conditional ADD, so concurrent views never exceed `maxViews`; the views index entry
 * follows in a second write that only the latest count can make.
 */
export async function countFileView(
  userId: string,
  fileId: string,
  passwordHash: string | null,
  now = new Date(),
): Promise<FileRecord | undefined> {
  const count = new UpdateBuilder().add('views', 1);
  const updated = await updateFileIf(userId, fileId, count, servableCondition(count, passwordHash, now));
  if (!updated) return undefined;
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
 * concurrent views never pass `maxViews` and none is lost. Undefined when the file may not be viewed.
 */
export async function countSeenView(
  userId: string,
  seen: FileRecord,
  now = new Date(),
): Promise<FileRecord | undefined> {
  const views = seen.views + 1;
  const count = setViewsIndex(new UpdateBuilder().set('views', views), userId, views, seen.id);
  const condition = `${count.name('views')} = ${count.value(seen.views)} AND ${servableCondition(count, null, now)}`;
  const counted = await updateFileIf(userId, seen.id, count, condition);
  return counted ? followViews(userId, counted) : countFileView(userId, seen.id, null, now);
}
