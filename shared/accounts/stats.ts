import { getFileCounters } from '#shared/files/record/stats';
import { getLinkCounters } from '#shared/links/store';

/** `GET /api/user/stats`, Zipline 4.4's shape. */
export interface UserStats {
  filesUploaded: number;
  favoriteFiles: number;
  views: number;
  avgViews: number;
  storageUsed: number;
  avgStorageUsed: number;
  urlsCreated: number;
  urlViews: number;
  sortTypeCount: Record<string, number>;
}

const average = (total: number, count: number) => (count === 0 ? 0 : total / count);

/**
 * A user's figures from counters kept as files and links change: one query of the file counters
 * (with a count per type) and one GetItem of the link counter, in parallel; never a read of the
 * files. `views` and `urlViews` are the views folded into the counters so far (docs/stats.md): no view
 * writes to them, so a popular file never makes the counters a hot key.
 */
export async function userStats(userId: string): Promise<UserStats> {
  const [files, links] = await Promise.all([getFileCounters(userId), getLinkCounters(userId)]);
  return {
    filesUploaded: files.files,
    favoriteFiles: files.favorites,
    views: files.views,
    avgViews: average(files.views, files.files),
    storageUsed: files.bytes,
    avgStorageUsed: average(files.bytes, files.files),
    urlsCreated: links.count,
    urlViews: links.views,
    sortTypeCount: files.types,
  };
}
