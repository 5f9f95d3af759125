import { decodeCursor, encodeCursor } from '#shared/db/cursor';
import { FILE_PREFIX, fileKey } from '#shared/db/keys/files';
import { batchGetItems } from '#shared/db/reads';
import { type ExpiredFiles, findExpiredFiles, withoutExpired } from '#shared/files/expiry/expired';
import { firstPageWithCounters, isNewestFirstPage } from '#shared/files/listing/first-page';
import {
  fileIdOf,
  type Key,
  libraryScope,
  resumeKey,
  type Scope,
  type Source,
  source,
  sourceOf,
  type Walk,
  walk,
} from '#shared/files/listing/walk';
import type { FileRecord, FileStats, ListFilter, SortField, TextSearchField } from '#shared/files/model';
import { SEARCH_INDEX, SORT_INDEXES, searchableValue } from '#shared/files/record/indexing';
import { fromFileItem } from '#shared/files/record/items';
import { getFileStats } from '#shared/files/record/stats';
import { batchGetFiles } from '#shared/files/record/store';

export interface ListOptions {
  sortBy: SortField;
  order: 'asc' | 'desc';
  filter: ListFilter;
  favoriteOnly: boolean;
  perpage: number;
  page: number;
  /** The previous page's `nextCursor` (replaces `page`). */
  cursor?: string;
}

export interface FilePage {
  files: FileRecord[];
  total: number;
  /** The cursor of the next page, when more files may follow. */
  nextCursor: string | undefined;
}

/** The cursor scope: a cursor works only for the same user, order and filters it was made for. */
const cursorScope = (userId: string, options: ListOptions) =>
  `files:${userId}:${options.sortBy}:${options.order}:${options.filter}:${options.favoriteOnly}`;

function totalOf(stats: FileStats, options: Pick<ListOptions, 'filter' | 'favoriteOnly'>): number {
  if (options.filter === 'dashboard') return options.favoriteOnly ? stats.favoriteMedia : stats.media;
  return options.favoriteOnly ? stats.favorites : stats.files;
}

/** What leaves the expired files out of a walk: undefined when there are none (the usual case). */
export const notIn = (expired: ExpiredFiles) =>
  expired.keys.size === 0 ? undefined : (item: Key) => !expired.keys.has(`${FILE_PREFIX}${fileIdOf(item)}`);

/** Both of two item tests (either may be absent). */
export const both = (a?: (item: Key) => boolean, b?: (item: Key) => boolean) =>
  a && b ? (item: Key) => a(item) && b(item) : (a ?? b);

/**
 * One page of a user's files in any order. The first page newest first with no filter comes with the
 * counters in one query (listing/first-page.ts) unless an expired file is among them. The first
 * page, and a page after a cursor, read `perpage` items: from the base table for id/createdAt, else
 * `perpage` compact entries of the order's index (every file has one in every order) plus a
 * BatchGet of the page. A numbered deep page first skips `(page - 1) × perpage` entries of the order's compact index. The
 * total comes from the counters, not from counting. Files past their `deletesAt` that the sweep has
 * not deleted yet (files/expiry/expired.ts) are left out of the walk and taken off the total; a deep page's
 * skip waits for that read.
 */
export async function listFiles(userId: string, options: ListOptions): Promise<FilePage> {
  const newest = isNewestFirstPage(options);
  const [first, expired, read] = await Promise.all([
    newest ? firstPageWithCounters(userId, options.perpage) : undefined,
    findExpiredFiles(userId, new Date()),
    newest ? undefined : getFileStats(userId),
  ]);
  const stats = read ?? first?.stats ?? (await getFileStats(userId));
  const total = totalOf(withoutExpired(stats, expired), options);
  if (first && expired.keys.size === 0) {
    const scope = cursorScope(userId, options);
    return { files: first.files, total, nextCursor: first.next && (await encodeCursor(scope, first.next)) };
  }
  const found = await listScope(
    userId,
    libraryScope(userId),
    cursorScope(userId, options),
    options,
    notIn(expired),
  );
  return { ...found, total };
}

/**
 * A page of the files of `scope` (the library, a tag's: listing/by-tag.ts, a folder's: listing/folder.ts)
 * that pass `accept`, as
 * `listFiles` reads it: after the cursor (made for `cursorScope`), or skipping to the numbered page.
 */
export async function listScope(
  userId: string,
  scope: Scope,
  cursorScope: string,
  options: ListOptions,
  accept: ((item: Key) => boolean) | undefined,
): Promise<Omit<FilePage, 'total'>> {
  const from = sourceOf(scope, options.sortBy);
  const start =
    options.cursor === undefined
      ? await skip(scope, options, accept)
      : resumeKey(scope, from, await decodeCursor(cursorScope, options.cursor));
  if (start === null) return { files: [], nextCursor: undefined };
  const found = await walk(from, options, start, options.perpage, true, accept);
  return {
    files: await filesOf(userId, from, scope, found),
    nextCursor: found.more && found.last ? await encodeCursor(cursorScope, found.last) : undefined,
  };
}

/** The files of a walk: read whole from the base table, or by key after an index's entries or memberships. */
async function filesOf(userId: string, from: Source, scope: Scope, found: Walk): Promise<FileRecord[]> {
  if (from.index === undefined && scope.fileItems) return found.items.map(fromFileItem);
  const files = await batchGetFiles(found.items.map((item) => fileKey(userId, fileIdOf(item))));
  const read = new Map(files.map((file) => [file.id, file]));
  return found.items.flatMap((item) => read.get(fileIdOf(item)) ?? []);
}

/**
 * Where a numbered page starts: undefined (the order's start) for page 1, null past the end. The
 * skip walks the order's compact index (id/createdAt: the by-id index, not the base table) asking
 * only for the keys back.
 */
async function skip(
  scope: Scope,
  options: ListOptions,
  live: ((item: Key) => boolean) | undefined,
): Promise<Key | undefined | null> {
  const count = (options.page - 1) * options.perpage;
  if (count === 0) return undefined;
  const { index, skipIndex } = SORT_INDEXES[options.sortBy];
  const skipped = await walk(source(scope, skipIndex), options, undefined, count, false, live);
  if (!skipped.more || !skipped.last) return null;
  const { pk, sk } = skipped.last;
  return index === undefined ? { pk, sk } : skipped.last;
}

export interface SearchOptions extends Omit<ListOptions, 'after'> {
  field: TextSearchField;
  /** Matched case-insensitively as a substring. */
  query: string;
}

/**
 * A search reads the search index (keys, flags and the lowercased searchable fields; a few dozen bytes
 * per file) in id order and matches in memory; DynamoDB cannot match substrings on a key. It reads
 * the whole index, as the answer carries the exact number of matches (`total`). In another order
 * than id/createdAt the order's sort key of every match is read too (one small item read per
 * match), and then the page.
 */
export async function searchFiles(
  userId: string,
  options: SearchOptions,
): Promise<{ files: FileRecord[]; total: number }> {
  const query = options.query.toLowerCase();
  const live = notIn(await findExpiredFiles(userId, new Date()));
  const accept = (entry: Key) =>
    searchableValue(entry, options.field).includes(query) && (live === undefined || live(entry));
  const from = source(libraryScope(userId), SEARCH_INDEX);
  const { index } = SORT_INDEXES[options.sortBy];
  const skipped = (options.page - 1) * options.perpage;
  const found = await walk(from, options, undefined, Number.MAX_SAFE_INTEGER, true, accept);
  const matches = found.items as { pk: string; sk: string }[];
  const total = matches.length;
  if (index === undefined) {
    const page = matches.slice(skipped, skipped + options.perpage);
    return { files: await batchGetFiles(page), total };
  }
  // Only the order's own sort key of each match, then the page itself.
  const sortKey = `${index}sk`;
  const direction = options.order === 'asc' ? 1 : -1;
  const ranked = (await batchGetItems(matches, [sortKey])).sort((a, b) => {
    const [x, y] = [String(a[sortKey]), String(b[sortKey])];
    return x < y ? -direction : x > y ? direction : 0;
  });
  const page = ranked.slice(skipped, skipped + options.perpage);
  return { files: await batchGetFiles(page as { pk: string; sk: string }[]), total };
}
