import { decodeCursor, encodeCursor } from '#shared/db/cursor';
import {
  USER_SHARDS,
  USERS_INDEX,
  USERS_INDEX_PARTITION,
  USERS_INDEX_SORT,
  userIndexRange,
  userShardPartition,
} from '#shared/db/keys/users';
import { queryPage } from '#shared/db/reads';
import { invalid } from '#shared/errors';
import { requireUserAdministrator } from '#shared/users/admin';
import { roleRank, toUserResource, type UserRecord, type UserResource } from '#shared/users/model';
import { managedRoles, type Party } from '#shared/users/roles';
import { fromItem } from '#shared/users/store';

/**
 * `GET /api/users`: the users the caller may act on, ordered by role (highest first) and id, read
 * from the sharded listing index (db/keys/users.ts `userIndexKey`). Their roles are one contiguous band of
 * the sort key in every shard, so each shard's key range is exactly its part of the listing; the
 * shards are queried in parallel and merged in sort-key order, which is the same order across
 * shards (the key ends with the unique user id).
 */

export interface UserPage {
  users: UserResource[];
  nextCursor: string | undefined;
}

/** A page stays well inside Lambda's 6 MB response limit whatever the users' view settings hold. */
const MAX_PAGE_BYTES = 4 * 1024 * 1024;

/**
 * Where each shard stands: the sort key of the last user it gave to a page (absent: none yet), or
 * `DONE` once it has nothing more in the band. Signed into the cursor, bound to the caller's role.
 */
type Positions = Record<number, string>;
const DONE = '';

interface ShardRead {
  shard: number;
  items: Record<string, unknown>[];
  /** DynamoDB has nothing in the band beyond `items`. */
  exhausted: boolean;
}

export async function listUsersFor(
  actor: Party,
  page: { limit: number; cursor: string | undefined },
): Promise<UserPage> {
  requireUserAdministrator(actor);
  const ranks = managedRoles(actor.role).map(roleRank);
  const range = userIndexRange(Math.min(...ranks), Math.max(...ranks));
  // The version in the scope refuses cursors of the single-partition listing (a 400, not a 500).
  const scope = `users-sharded:${actor.role}`;
  const positions = page.cursor === undefined ? {} : toPositions(await decodeCursor(scope, page.cursor));
  const shards = Array.from({ length: USER_SHARDS }, (_, shard) => shard);
  const reads = await Promise.all(
    shards
      .filter((shard) => positions[shard] !== DONE)
      .map((shard) => readShard(shard, positions[shard], range, page.limit + 1)),
  );

  // The first `limit` users of the merged order are among the first `limit` of their own shard.
  const merged = reads
    .flatMap((read) => read.items.map((item) => ({ shard: read.shard, item })))
    .sort((a, b) => compare(String(a.item[USERS_INDEX_SORT]), String(b.item[USERS_INDEX_SORT])));
  const users: UserResource[] = [];
  let bytes = 0;
  const next: Positions = { ...positions };
  const taken = new Map<number, number>();
  for (const { shard, item } of merged.slice(0, page.limit)) {
    const user = toUserResource(fromItem(item) as UserRecord);
    bytes += JSON.stringify(user).length;
    if (users.length > 0 && bytes > MAX_PAGE_BYTES) break;
    users.push(user);
    next[shard] = String(item[USERS_INDEX_SORT]);
    taken.set(shard, (taken.get(shard) ?? 0) + 1);
  }
  for (const read of reads) {
    if (read.exhausted && (taken.get(read.shard) ?? 0) === read.items.length) next[read.shard] = DONE;
  }
  const more = merged.length > users.length;
  return { users, nextCursor: more ? await encodeCursor(scope, next) : undefined };
}

/** Up to `wanted` users of one shard in the band, after `after`; more than one query past 1 MB. */
async function readShard(
  shard: number,
  after: string | undefined,
  range: { from: string; to: string },
  wanted: number,
): Promise<ShardRead> {
  const partition = userShardPartition(shard);
  // The sort key ends with the user id, so the last listed user's index key is known from it.
  let startKey: Record<string, unknown> | undefined =
    after === undefined
      ? undefined
      : { ...userKeyOf(after), [USERS_INDEX_PARTITION]: partition, [USERS_INDEX_SORT]: after };
  const items: Record<string, unknown>[] = [];
  do {
    const result = await queryPage({
      IndexName: USERS_INDEX,
      KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :from AND :to',
      ExpressionAttributeNames: { '#pk': USERS_INDEX_PARTITION, '#sk': USERS_INDEX_SORT },
      ExpressionAttributeValues: { ':pk': partition, ':from': range.from, ':to': range.to },
      Limit: wanted - items.length,
      ExclusiveStartKey: startKey,
    });
    items.push(...(result.Items ?? []));
    startKey = result.LastEvaluatedKey;
  } while (startKey !== undefined && items.length < wanted);
  return { shard, items, exhausted: startKey === undefined };
}

const userKeyOf = (sortKey: string) => ({
  pk: `USER#${sortKey.slice(sortKey.indexOf('#') + 1)}`,
  sk: 'USER',
});

/** DynamoDB's order of string keys (UTF-8 bytes), not JavaScript's (UTF-16 code units). */
const compare = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** The cursor is ours (signed), but one written by another version must still be a clean 400. */
function toPositions(decoded: Record<string, unknown>): Positions {
  const positions: Positions = {};
  for (const [shard, position] of Object.entries(decoded)) {
    const index = Number(shard);
    if (!Number.isInteger(index) || index < 0 || index >= USER_SHARDS || typeof position !== 'string') {
      throw invalid('invalid cursor');
    }
    positions[index] = position;
  }
  return positions;
}
