import { randomInt } from 'node:crypto';
import { UpdateBuilder } from '#shared/db/expressions/update';
import { viewTotalsKey } from '#shared/db/keys/views';
import { batchGetItems } from '#shared/db/reads';
import { updateItem } from '#shared/db/table-calls';

/**
 * The views counted on a user's files and links, for `GET /api/user/stats` (docs/stats.md). Every
 * counted view ADDs one to one of `TOTAL_SHARDS` items chosen at random (attribute `files` or
 * `links`), each its own partition: the views of all of a user's files and links together take
 * about 10,000 a second before one shard reaches DynamoDB's 1,000 writes a key, and the owner's own
 * partition takes none of them. Reading the totals is one BatchGetItem of the shards.
 */
export const TOTAL_SHARDS = 10;

const ATTRIBUTE = { file: 'files', link: 'links' } as const;

/** One view of one of `userId`'s files or links, added to their totals (one one-unit UpdateItem). */
export async function addOwnerView(userId: string, kind: 'file' | 'link'): Promise<void> {
  await updateItem(
    viewTotalsKey(userId, randomInt(TOTAL_SHARDS)),
    new UpdateBuilder().add(ATTRIBUTE[kind], 1).build(),
  );
}

/** Every shard key of a user's totals, for the user's deletion. */
export const totalKeys = (userId: string) =>
  Array.from({ length: TOTAL_SHARDS }, (_, shard) => viewTotalsKey(userId, shard));

/** The views counted on a user's files and on their links: one BatchGetItem of the shards. */
export async function ownerViews(userId: string): Promise<{ files: number; links: number }> {
  const items = await batchGetItems(totalKeys(userId), ['files', 'links']);
  const sum = (attribute: string) => items.reduce((total, item) => total + Number(item[attribute] ?? 0), 0);
  return { files: sum('files'), links: sum('links') };
}
