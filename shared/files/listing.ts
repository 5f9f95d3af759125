import type { NativeAttributeValue } from '@aws-sdk/lib-dynamodb';
import { decodeCursor, encodeCursor } from '#shared/db/cursor';
import { FILE_PREFIX, filesPartition, userKey } from '#shared/db/keys';
import { batchGetItems, queryPage } from '#shared/db/reads';
import { invalid } from '#shared/errors';
import { type ExpiredFiles, findExpiredFiles, withoutExpired } from '#shared/files/expired';
import { SEARCH_INDEX, SORT_INDEXES, searchableValue } from '#shared/files/indexing';
import { fromFileItem } from '#shared/files/items';
import type { FileRecord, FileStats, ListFilter, SearchField, SortField } from '#shared/files/model';
import { getFileStats } from '#shared/files/stats';
import { batchGetFiles } from '#shared/files/store';

type Key = Record<string, NativeAttributeValue>;

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

function filterExpression(options: Pick<ListOptions, 'filter' | 'favoriteOnly'>) {
  const parts: string[] = [];
  if (options.favoriteOnly) parts.push('favorite = :true');
  if (options.filter === 'dashboard') parts.push('media = :true');
  return parts.length
    ? { FilterExpression: parts.join(' AND '), ExpressionAttributeValues: { ':true': true } }
    : undefined;
}

function totalOf(stats: FileStats, options: Pick<ListOptions, 'filter' | 'favoriteOnly'>): number {
  if (options.filter === 'dashboard') return options.favoriteOnly ? stats.favoriteMedia : stats.media;
  return options.favoriteOnly ? stats.favorites : stats.files;
}

interface Source {
  /** Index name, or undefined for the base table. */
  index: string | undefined;
  keyNames: string[];
  keyCondition: { KeyConditionExpression: string; ExpressionAttributeValues: Key };
}

function source(userId: string, index: string | undefined): Source {
  if (index === undefined) {
    return {
      index,
      keyNames: ['pk', 'sk'],
      keyCondition: {
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': userKey(userId).pk, ':prefix': FILE_PREFIX },
      },
    };
  }
  return {
    index,
    keyNames: ['pk', 'sk', `${index}pk`, `${index}sk`],
    keyCondition: {
      KeyConditionExpression: `${index}pk = :pk`,
      ExpressionAttributeValues: { ':pk': filesPartition(userId) },
    },
  };
}

const keyOf = (item: Key, names: string[]): Key =>
  Object.fromEntries(names.map((name) => [name, item[name]]));

interface Walk {
  items: Key[];
  /** Key of the last item taken: where the next walk resumes. */
  last: Key | undefined;
  /** Whether the source holds matching items after `last`. */
  more: boolean;
}

/**
 * Walks a source in order from `start`, taking `need` items that pass the filters (and `accept`, a
 * match made in memory). Without either each request asks for exactly what is still needed, so
 * nothing past the page is read; with them a request asks for more, growing while matches are rare.
 */
async function walk(
  from: Source,
  options: Pick<ListOptions, 'order' | 'filter' | 'favoriteOnly'>,
  start: Key | undefined,
  need: number,
  keep: boolean,
  accept?: (item: Key) => boolean,
): Promise<Walk> {
  const filter = filterExpression(options);
  const items: Key[] = [];
  let taken = 0;
  let last: Key | undefined;
  let exclusiveStart = start;
  let slack = filter || accept ? 50 : 0;
  for (;;) {
    const result = await queryPage({
      ...(from.index ? { IndexName: from.index } : {}),
      KeyConditionExpression: from.keyCondition.KeyConditionExpression,
      ...(filter ? { FilterExpression: filter.FilterExpression } : {}),
      ExpressionAttributeValues: {
        ...from.keyCondition.ExpressionAttributeValues,
        ...filter?.ExpressionAttributeValues,
      },
      ScanIndexForward: options.order === 'asc',
      ExclusiveStartKey: exclusiveStart,
      Limit: Math.min(need - taken + slack, 10_000),
      // Skipping needs only where it stops: the keys, not the projected search fields.
      ...(keep || accept ? {} : { ProjectionExpression: from.keyNames.join(', ') }),
    });
    for (const item of result.Items ?? []) {
      if (accept && !accept(item)) continue;
      if (taken === need) return { items, last, more: true };
      taken++;
      last = keyOf(item, from.keyNames);
      if (keep) items.push(item);
    }
    // Limit reached exactly also leaves a LastEvaluatedKey: "more" may then lead to an empty page.
    if (!result.LastEvaluatedKey || taken === need) {
      return { items, last, more: result.LastEvaluatedKey !== undefined };
    }
    exclusiveStart = result.LastEvaluatedKey;
    slack = Math.min(slack * 4, 10_000);
  }
}

function checkAfter(userId: string, from: Source, after: Key): Key {
  const names = Object.keys(after).sort();
  const valid =
    after.pk === userKey(userId).pk &&
    (from.index === undefined || after[`${from.index}pk`] === filesPartition(userId)) &&
    names.join() === [...from.keyNames].sort().join() &&
    names.every((name) => typeof after[name] === 'string');
  if (!valid) throw invalid('invalid cursor');
  return after;
}

/** What leaves the expired files out of a walk: undefined when there are none (the usual case). */
const notIn = (expired: ExpiredFiles) =>
  expired.keys.size === 0 ? undefined : (item: Key) => !expired.keys.has(String(item.sk));

/**
 * One page of a user's files in any order. The first page, and a page after a cursor, read `perpage`
 * items: from the base table for id/createdAt, else `perpage` compact index entries plus a
 * BatchGet of the page. A numbered deep page first skips `(page - 1) × perpage` entries of the
 * order's compact index. The total comes from the counters, not from counting. Files past their
 * `deletesAt` that the sweep has not deleted yet (files/expired.ts) are left out of the walk and
 * taken off the total; a deep page's skip waits for that read.
 */
export async function listFiles(userId: string, options: ListOptions): Promise<FilePage> {
  const { index, skipIndex } = SORT_INDEXES[options.sortBy];
  const reader = source(userId, index);
  const scope = cursorScope(userId, options);
  const [stats, expired, after] = await Promise.all([
    getFileStats(userId),
    findExpiredFiles(userId, new Date()),
    options.cursor === undefined
      ? undefined
      : decodeCursor(scope, options.cursor).then((key) => checkAfter(userId, reader, key)),
  ]);
  const total = totalOf(withoutExpired(stats, expired), options);
  const live = notIn(expired);
  const start = options.cursor === undefined ? await skip(userId, skipIndex, options, live) : after;
  if (start === null) return { files: [], total, nextCursor: undefined };
  const found = await walk(reader, options, start, options.perpage, true, live);
  const files =
    index === undefined
      ? found.items.map(fromFileItem)
      : await batchGetFiles(found.items as { pk: string; sk: string }[]);
  return {
    files,
    total,
    nextCursor: found.more && found.last ? await encodeCursor(scope, found.last) : undefined,
  };
}

/**
 * The key to start a numbered page after: undefined for page 1, null past the end. The skip walks
 * the order's compact index asking only for the keys back.
 */
async function skip(
  userId: string,
  skipIndex: string,
  options: ListOptions,
  live: ((item: Key) => boolean) | undefined,
): Promise<Key | undefined | null> {
  const count = (options.page - 1) * options.perpage;
  if (count === 0) return undefined;
  const skipped = await walk(source(userId, skipIndex), options, undefined, count, false, live);
  if (!skipped.more || !skipped.last) return null;
  const { index } = SORT_INDEXES[options.sortBy];
  return index === undefined ? { pk: skipped.last.pk, sk: skipped.last.sk } : skipped.last;
}

export interface SearchOptions extends Omit<ListOptions, 'after'> {
  field: SearchField;
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
  const from = source(userId, SEARCH_INDEX);
  const { index } = SORT_INDEXES[options.sortBy];
  const skipped = (options.page - 1) * options.perpage;
  const found = await walk(from, options, undefined, Number.MAX_SAFE_INTEGER, true, accept);
  const total = found.items.length;
  if (index === undefined) {
    const page = found.items.slice(skipped, skipped + options.perpage);
    return { files: await batchGetFiles(page as { pk: string; sk: string }[]), total };
  }
  // Only the order's own sort key of each match, then the page itself.
  const sortKey = `${index}sk`;
  const direction = options.order === 'asc' ? 1 : -1;
  const ranked = (await batchGetItems(found.items as { pk: string; sk: string }[], [sortKey])).sort(
    (a, b) => {
      const [x, y] = [String(a[sortKey]), String(b[sortKey])];
      return x < y ? -direction : x > y ? direction : 0;
    },
  );
  const page = ranked.slice(skipped, skipped + options.perpage);
  return { files: await batchGetFiles(page as { pk: string; sk: string }[]), total };
}
