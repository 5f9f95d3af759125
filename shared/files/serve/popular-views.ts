import { FILE_PREFIX } from '#shared/db/keys/files';
import { type FileRecord, isExpired } from '#shared/files/model';
import { deleteViewCounters } from '#shared/views/cleanup';
import { countedViews, countOnCounters, shardViews, VIEW_SHARDS } from '#shared/views/counters';

/**
 * A popular file's views (docs/scale.md, "Views"). A file counts its first `POPULAR_AFTER` views on
 * its own item, as it always did (exact at once in its listings, its views order and its tags'), so
 * its item takes at most that many view writes in its life; from then on the item's `views` stays
 * where it is and every view is counted by the views' owner on the file's sharded counters
 * (shared/views/counters.ts), as a short link's are. Its views are the item's plus its counters'.
 */
export const POPULAR_AFTER = 100;

/** The file's item has counted all the views it will: the next go to its counters. */
export const isPopular = (file: Pick<FileRecord, 'views'>) => file.views >= POPULAR_AFTER;

/**
 * Counts a view of a popular file as read (`file`, whose item's `views` no longer moves), refusing
 * (undefined) one past its `deletesAt`, whose password hash is not `passwordHash`, or out of views:
 * its `maxViews` is exact on the `max` counter, whose allowance leaves out the views its item and
 * its shards counted (the shards are read only for a limited file). Returns the file with its views
 * estimated from the counter written (exact for a limited file), and that counter's value.
 */
export async function countPopularView(
  userId: string,
  file: FileRecord,
  passwordHash: string | null,
  now: Date,
): Promise<{ file: FileRecord; counter: number } | undefined> {
  if (!isPopular(file) || file.passwordHash !== passwordHash || isExpired(file, now)) return undefined;
  const limited = file.maxViews !== null;
  const viewsBeforeLimit = limited ? file.views + (await shardViews('file', file.id)) : 0;
  const counter = await countOnCounters(
    { kind: 'file', id: file.id, ownerId: userId },
    { maxViews: file.maxViews, viewsBeforeLimit },
  );
  if (counter === undefined) return undefined;
  const views = limited ? viewsBeforeLimit + counter : file.views + counter * VIEW_SHARDS;
  return { file: { ...file, views }, counter };
}

/**
 * Whether the view that brought a counter to `counter` moves the file in the views order: each of a
 * counter's first 10 views, every 100th up to 1,000, then every 1,000th. Over the ten shards: about
 * 100 item writes while a file warms up, then one per 1,000 views overall (5 a second at 5,000
 * views a second), the file's place at most about 10 % behind its count.
 */
export const movesViewsOrder = (counter: number) =>
  counter <= 10 || counter % (counter < 1000 ? 100 : 1000) === 0;

/**
 * Files with their views as the owner's API answers them: a popular file's item views plus its
 * counters (11 small items each, in BatchGetItems of 100); any other file's item is its count.
 */
export async function withCountedViews<T extends Pick<FileRecord, 'id' | 'views'>>(files: T[]): Promise<T[]> {
  const popular = files.filter(isPopular).map((file) => file.id);
  if (popular.length === 0) return files;
  const counted = await countedViews('file', popular);
  return files.map((file) => ({ ...file, views: file.views + (counted.get(file.id) ?? 0) }));
}

/** The attributes of a partition's items that `releasePopularCounters` needs besides the keys. */
export const POPULAR_RELEASE_ATTRIBUTES = ['views'];

/**
 * A user's deletion: deletes the view counters of the popular files among `items` (a page of the
 * owner's partition, read with `POPULAR_RELEASE_ATTRIBUTES`) before those items are deleted, so a
 * retry still finds them through the file items.
 */
export async function releasePopularCounters(items: Record<string, unknown>[]): Promise<void> {
  const popular = items.flatMap((item) => {
    const sk = String(item.sk);
    return sk.startsWith(FILE_PREFIX) && isPopular({ views: Number(item.views ?? 0) })
      ? [sk.slice(FILE_PREFIX.length)]
      : [];
  });
  if (popular.length > 0) await deleteViewCounters('file', popular);
}
