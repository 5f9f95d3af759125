import { FILE_PREFIX, fileStatsKey } from '#shared/db/keys/files';
import { queryPage } from '#shared/db/reads';
import type { Key } from '#shared/files/listing/walk';
import type { FileRecord, FileStats, ListFilter, SortField } from '#shared/files/model';
import { fromFileItem } from '#shared/files/record/items';
import { recordedStats } from '#shared/files/record/stats';

/**
 * The first page newest first (by id or createdAt, the default order), with no filter: what the
 * dashboard and Zipline's clients ask first, read with the counters in one Query. The counters item
 * (`FILESTATS`) sorts right after the user's newest file item (`FILE#<id>`, ids are time-ordered),
 * so reading the partition backwards from it returns the counters, then the newest files: one
 * request where a GetItem and a Query were, for the same read units (issue 39, docs/performance.md).
 */

export interface FirstPageRequest {
  sortBy: SortField;
  order: 'asc' | 'desc';
  filter: ListFilter;
  favoriteOnly: boolean;
  page: number;
  cursor?: string;
}

/** Whether the page is the one `firstPageWithCounters` reads. */
export const isNewestFirstPage = (request: FirstPageRequest) =>
  request.cursor === undefined &&
  request.page === 1 &&
  (request.sortBy === 'createdAt' || request.sortBy === 'id') &&
  request.order === 'desc' &&
  request.filter === 'all' &&
  !request.favoriteOnly;

export interface FirstPage {
  stats: FileStats;
  files: FileRecord[];
  /** The key of the page's last file (where the next page resumes) when more files may follow. */
  next: Key | undefined;
}

/**
 * The counters and the `perpage` newest files; undefined when the range holds an item of another
 * kind (none does today: a later item type sorting there leaves the reading to the general path).
 */
export async function firstPageWithCounters(userId: string, perpage: number): Promise<FirstPage | undefined> {
  const { pk, sk: countersKey } = fileStatsKey(userId);
  const result = await queryPage({
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :first AND :counters',
    ExpressionAttributeValues: { ':pk': pk, ':first': FILE_PREFIX, ':counters': countersKey },
    ScanIndexForward: false,
    Limit: perpage + 1,
  });
  let counters: Record<string, unknown> = {};
  const items: Key[] = [];
  for (const item of result.Items ?? []) {
    if (item.sk === countersKey) counters = item;
    else if (String(item.sk).startsWith(FILE_PREFIX)) items.push(item);
    else return undefined;
  }
  // Without a counters item (no file was ever stored) the query may return one file more than the page.
  const page = items.slice(0, perpage);
  const more = items.length > perpage || result.LastEvaluatedKey !== undefined;
  const last = page.at(-1);
  return {
    stats: recordedStats(counters),
    files: page.map(fromFileItem),
    next: more && last ? { pk: last.pk, sk: last.sk } : undefined,
  };
}
