import { getFileCounters } from '#shared/files/record/stats';
import { getLinkCounters } from '#shared/links/store';
import { ownerViews } from '#shared/views/totals';

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
 * (with a count per type), one GetItem of the link counter and one BatchGetItem of the view totals'
 * shards, in parallel; never a read of the files. The views are the owner's totals that every
 * counted view adds to (shared/views/totals.ts), sharded so that a popular file never makes them a
 * hot key (docs/stats.md).
 */
export async function userStats(userId: string): Promise<UserStats> {
  const [files, links, views] = await Promise.all([
    getFileCounters(userId),
    getLinkCounters(userId),
    ownerViews(userId),
  ]);
  return {
    filesUploaded: files.files,
    favoriteFiles: files.favorites,
    views: views.files,
    avgViews: average(views.files, files.files),
    storageUsed: files.bytes,
    avgStorageUsed: average(files.bytes, files.files),
    urlsCreated: links.count,
    urlViews: views.links,
    sortTypeCount: files.types,
  };
}
