import { randomInt } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documents, tableName } from '#shared/db/client';
import { unlessConditionFails } from '#shared/db/expressions/conditions';
import { UpdateBuilder } from '#shared/db/expressions/update';
import { linkViewsKey } from '#shared/db/keys/links';
import { batchGetItems } from '#shared/db/reads';

/**
 * A link's views, counted so that one popular link never makes a hot key (docs/scale.md, "Short
 * links"). A link without `maxViews` counts each redirect on one of `VIEW_SHARDS` counter items
 * chosen at random, each its own partition: 5,000 redirects a second are about 500 writes a second
 * per item, half DynamoDB's 1,000-per-key limit. A link with `maxViews` counts on one more item,
 * `max`, by a conditional ADD that refuses past its allowance: exact under any concurrency, and
 * bounded by that one key's 1,000 writes a second, which a limit of views makes short-lived. Views
 * are the sum of all the counters.
 */
export const VIEW_SHARDS = 10;

const counterKeys = (linkId: string, withMax: boolean) => [
  ...Array.from({ length: VIEW_SHARDS }, (_, shard) => linkViewsKey(linkId, shard)),
  ...(withMax ? [linkViewsKey(linkId, 'max')] : []),
];

/** What a redirect knows of the link's limit (read from its route item). */
export interface ViewLimit {
  linkId: string;
  maxViews: number | null;
  viewsBeforeLimit: number;
}

/**
 * Counts one view, one UpdateItem: true when counted, false when the limit is reached (nothing is
 * written then). `maxViews: 1` lets exactly one of any number of concurrent redirects through.
 */
export async function countLinkView(limit: ViewLimit): Promise<boolean> {
  if (limit.maxViews === null) {
    const update = new UpdateBuilder().add('views', 1).build();
    const key = linkViewsKey(limit.linkId, randomInt(VIEW_SHARDS));
    await documents.send(new UpdateCommand({ TableName: tableName, Key: key, ...update }));
    return true;
  }
  const allowed = limit.maxViews - limit.viewsBeforeLimit;
  if (allowed <= 0) return false;
  const builder = new UpdateBuilder().add('views', 1);
  const views = builder.name('views');
  const condition = `attribute_not_exists(${views}) OR ${views} < ${builder.value(allowed)}`;
  const counted = await unlessConditionFails(
    documents.send(
      new UpdateCommand({
        TableName: tableName,
        Key: linkViewsKey(limit.linkId, 'max'),
        ...builder.build(),
        ConditionExpression: condition,
      }),
    ),
  );
  return counted !== undefined;
}

/** The views of each link (by id): every counter read in BatchGetItems of 100 keys. */
export async function linkViews(linkIds: string[]): Promise<Map<string, number>> {
  const keys = linkIds.flatMap((id) => counterKeys(id, true));
  const totals = new Map(linkIds.map((id) => [id, 0]));
  for (const item of await batchGetItems(keys, ['views'])) {
    const id = String(item.pk)
      .slice('LINKVIEWS#'.length)
      .replace(/#[^#]*$/, '');
    totals.set(id, (totals.get(id) ?? 0) + Number(item.views ?? 0));
  }
  return totals;
}

/** The views counted on the shards (not the exact counter): what a new `maxViews` starts from. */
export async function shardViews(linkId: string): Promise<number> {
  const items = await batchGetItems(counterKeys(linkId, false), ['views']);
  return items.reduce((sum, item) => sum + Number(item.views ?? 0), 0);
}

/** Every counter key of a link, for its deletion. */
export const linkCounterKeys = (linkId: string) => counterKeys(linkId, true);
