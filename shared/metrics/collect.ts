import { forEachConcurrently } from '#shared/concurrency';
import { FILE_PREFIX } from '#shared/db/keys/files';
import {
  USER_SHARDS,
  USERS_INDEX,
  USERS_INDEX_PARTITION,
  userKey,
  userShardPartition,
} from '#shared/db/keys/users';
import { queryPages } from '#shared/db/table-calls';
import { withCountedViews } from '#shared/files/serve/popular-views';
import { listLinks } from '#shared/links/store';
import { linkViews } from '#shared/links/views';
import {
  type FilesUser,
  type MetricData,
  TOP_ENTRIES,
  type TypeCount,
  type UrlsUser,
} from '#shared/metrics/model';

/**
 * The instance's figures now, as the daily job takes them (docs/metrics.md): every user from the
 * listing index (16 shard queries), then each user's file items (one Query of its `FILE#` range, a
 * few attributes projected) and short links with their view counters. Nothing is scanned: the reads
 * are the file and link items themselves, about half a read unit per 4 KB of them.
 */

/** Users whose items are read at once. */
const USER_CONCURRENCY = 8;

interface ListedUser {
  id: string;
  username: string;
}

async function listedUsers(): Promise<ListedUser[]> {
  const shards = Array.from({ length: USER_SHARDS }, (_, shard) => shard);
  const perShard = await Promise.all(
    shards.map(async (shard) => {
      const users: ListedUser[] = [];
      const pages = queryPages({
        IndexName: USERS_INDEX,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': USERS_INDEX_PARTITION, '#id': 'id', '#name': 'username' },
        ExpressionAttributeValues: { ':pk': userShardPartition(shard) },
        ProjectionExpression: '#id, #name',
      });
      for await (const page of pages) {
        for (const item of page.Items ?? [])
          users.push({ id: String(item.id), username: String(item.username) });
      }
      return users;
    }),
  );
  return perShard.flat();
}

interface FileTotals {
  sum: number;
  storage: number;
  views: number;
  types: Map<string, number>;
}

async function fileTotals(userId: string): Promise<FileTotals> {
  const totals: FileTotals = { sum: 0, storage: 0, views: 0, types: new Map() };
  const pages = queryPages({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :files)',
    ExpressionAttributeNames: { '#sk': 'sk', '#size': 'size', '#type': 'type', '#views': 'views' },
    ExpressionAttributeValues: { ':pk': userKey(userId).pk, ':files': FILE_PREFIX },
    ProjectionExpression: '#sk, #size, #type, #views',
  });
  for await (const page of pages) {
    const items = page.Items ?? [];
    // A popular file's views are its item's and its counters' (files/serve/popular-views.ts).
    const views = items.map((item) => ({
      id: String(item.sk).slice(FILE_PREFIX.length),
      views: Number(item.views ?? 0),
    }));
    for (const file of await withCountedViews(views)) totals.views += file.views;
    for (const item of items) {
      totals.sum += 1;
      totals.storage += Number(item.size ?? 0);
      const type = String(item.type ?? 'application/octet-stream');
      totals.types.set(type, (totals.types.get(type) ?? 0) + 1);
    }
  }
  return totals;
}

async function linkTotals(userId: string): Promise<{ sum: number; views: number }> {
  const links = await listLinks(userId);
  if (links.length === 0) return { sum: 0, views: 0 };
  const views = await linkViews(links.map((link) => link.id));
  return { sum: links.length, views: [...views.values()].reduce((total, count) => total + count, 0) };
}

/** The largest `TOP_ENTRIES` by `sum`, ties by the first other figure given, then by name. */
function top<T extends { sum: number }>(
  entries: T[],
  tieBreak: (entry: T) => number,
  name: (entry: T) => string,
) {
  return entries
    .sort((a, b) => b.sum - a.sum || tieBreak(b) - tieBreak(a) || name(a).localeCompare(name(b)))
    .slice(0, TOP_ENTRIES);
}

export async function collectInstanceMetrics(): Promise<MetricData> {
  const users = await listedUsers();
  const filesUsers: FilesUser[] = [];
  const urlsUsers: UrlsUser[] = [];
  const types = new Map<string, number>();
  const data = { users: users.length, files: 0, fileViews: 0, urls: 0, urlViews: 0, storage: 0 };
  await forEachConcurrently(users, USER_CONCURRENCY, async (user) => {
    const [files, links] = await Promise.all([fileTotals(user.id), linkTotals(user.id)]);
    data.files += files.sum;
    data.storage += files.storage;
    data.fileViews += files.views;
    data.urls += links.sum;
    data.urlViews += links.views;
    for (const [type, sum] of files.types) types.set(type, (types.get(type) ?? 0) + sum);
    if (files.sum > 0) {
      filesUsers.push({
        username: user.username,
        sum: files.sum,
        storage: files.storage,
        views: files.views,
      });
    }
    if (links.sum > 0) urlsUsers.push({ username: user.username, ...links });
  });
  return {
    ...data,
    filesUsers: top(
      filesUsers,
      (entry) => entry.storage,
      (entry) => entry.username ?? '',
    ),
    urlsUsers: top(
      urlsUsers,
      (entry) => entry.views,
      (entry) => entry.username ?? '',
    ),
    types: top<TypeCount>(
      [...types].map(([type, sum]) => ({ type, sum })),
      () => 0,
      (entry) => entry.type,
    ),
  };
}
