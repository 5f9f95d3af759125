import { expiryDueBefore, filesPartition } from '#shared/db/keys/files';
import { queryEveryPage } from '#shared/db/reads';
import type { FileStats } from '#shared/files/model';
import { SORT_INDEXES } from '#shared/files/record/indexing';

/**
 * A user's files that are past their `deletesAt` but not yet swept (files/expiry/sweep.ts runs each
 * minute): listings leave them out and take them off their totals, so none is ever shown. Read from
 * the deletesAt-ordered index, where they are the first entries: usually none, and the read is one
 * query that returns nothing.
 */
export interface ExpiredFiles {
  /** Sort keys (`FILE#<id>`) of the expired files. */
  keys: Set<string>;
  /** Their share of each total. */
  stats: FileStats;
}

export async function findExpiredFiles(userId: string, now: Date): Promise<ExpiredFiles> {
  const expired: ExpiredFiles = {
    keys: new Set(),
    stats: { files: 0, bytes: 0, favorites: 0, media: 0, favoriteMedia: 0 },
  };
  const pages = queryEveryPage({
    IndexName: SORT_INDEXES.deletesAt.index,
    KeyConditionExpression: `${SORT_INDEXES.deletesAt.index}pk = :pk AND ${SORT_INDEXES.deletesAt.index}sk < :due`,
    ExpressionAttributeValues: {
      ':pk': filesPartition(userId),
      ':due': expiryDueBefore(now.toISOString()),
    },
  });
  for await (const page of pages) {
    for (const entry of page.Items ?? []) {
      expired.keys.add(String(entry.sk));
      expired.stats.files++;
      if (entry.favorite) expired.stats.favorites++;
      if (entry.media) expired.stats.media++;
      if (entry.favorite && entry.media) expired.stats.favoriteMedia++;
    }
  }
  return expired;
}

/** Counters with the expired files taken off (bytes are not a listing total and stay). */
export const withoutExpired = (stats: FileStats, expired: ExpiredFiles): FileStats => ({
  files: stats.files - expired.stats.files,
  bytes: stats.bytes,
  favorites: stats.favorites - expired.stats.favorites,
  media: stats.media - expired.stats.media,
  favoriteMedia: stats.favoriteMedia - expired.stats.favoriteMedia,
});
