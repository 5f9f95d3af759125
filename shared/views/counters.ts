import { randomInt } from 'node:crypto';
import { unlessConditionFails } from '#shared/db/expressions/conditions';
import { UpdateBuilder } from '#shared/db/expressions/update';
import { linkViewsKey } from '#shared/db/keys/links';
import { fileViewsKey } from '#shared/db/keys/views';
import { batchGetItems } from '#shared/db/reads';
import { updateItem } from '#shared/db/table-calls';

/**
 * The one owner of view counting (docs/scale.md, "Views"), for short links and popular files alike:
 * the rule "views left" as a predicate (`hasViewsLeft`) and as a write's condition
 * (`viewsLeftCondition`), and the sharded counters a popular subject's views go to, so that no
 * single key takes them all.
 *
 * Without a limit a view goes to one of `VIEW_SHARDS` counter items chosen at random, each its own
 * partition: 5,000 views a second are about 500 one-unit writes a second per item, half DynamoDB's
 * 1,000 a key. With `maxViews` it goes to one more item, `max`, by a conditional ADD that refuses
 * past the subject's allowance: exact under any concurrency, bounded by that key's 1,000 writes a
 * second. A subject's views are the sum of its counters (plus, for a file, the views its own item
 * counted before it became popular). Each counter names its subject's owner (`ownerId`, set by the
 * count's own write): the table's stream adds its views to the owner's totals (shared/views/totals.ts),
 * so a view costs that one write and nothing more.
 */
export const VIEW_SHARDS = 10;

/** What is counted: a short link (`/go/`) or a file (`/raw/`, `/u/`, `/view/`). */
export type ViewSubject = { kind: 'link' | 'file'; id: string; ownerId: string };

/** A subject's limit: `maxViews` (null: none) and the views counted elsewhere that it includes. */
export interface ViewLimit {
  maxViews: number | null;
  viewsBeforeLimit: number;
}

/** Views left: the predicate every read of a subject's count decides by. */
export const hasViewsLeft = (views: number, maxViews: number | null) => maxViews === null || views < maxViews;

/**
 * `hasViewsLeft` as a write's condition on the item the update builds: its `views` below `limit`,
 * either a number (a counter's allowance) or the item's own attribute (a file's `maxViews`); a
 * missing limit attribute, or a counter not written yet, has views left.
 */
export function viewsLeftCondition(update: UpdateBuilder, limit: number | { attribute: string }): string {
  const views = update.name('views');
  if (typeof limit === 'number')
    return `(attribute_not_exists(${views}) OR ${views} < ${update.value(limit)})`;
  const max = update.name(limit.attribute);
  return `(attribute_not_exists(${max}) OR ${views} < ${max})`;
}

const counterKey = (kind: ViewSubject['kind'], id: string, shard: number | 'max') =>
  kind === 'link' ? linkViewsKey(id, shard) : fileViewsKey(id, shard);

const shardKeys = (kind: ViewSubject['kind'], id: string) =>
  Array.from({ length: VIEW_SHARDS }, (_, shard) => counterKey(kind, id, shard));

/** Every counter key of a subject (the shards and `max`), for its deletion. */
export const counterKeys = (kind: ViewSubject['kind'], id: string) => [
  ...shardKeys(kind, id),
  counterKey(kind, id, 'max'),
];

/**
 * Counts one view on the subject's counters, one UpdateItem (which names the owner). Returns
 * the written counter's new value (a shard's share, or the exact `max` count), or undefined when the
 * limit is reached (nothing is written then): `maxViews: 1` lets exactly one of any number of
 * concurrent views through.
 */
export async function countOnCounters(subject: ViewSubject, limit: ViewLimit): Promise<number | undefined> {
  const update = new UpdateBuilder().add('views', 1).set('ownerId', subject.ownerId);
  let written: Record<string, unknown> | undefined;
  if (limit.maxViews === null) {
    const key = counterKey(subject.kind, subject.id, randomInt(VIEW_SHARDS));
    written = (await updateItem(key, { ...update.build(), ReturnValues: 'UPDATED_NEW' })).Attributes;
  } else {
    const allowed = limit.maxViews - limit.viewsBeforeLimit;
    if (allowed <= 0) return undefined;
    update.when(viewsLeftCondition(update, allowed));
    const counted = await unlessConditionFails(
      updateItem(counterKey(subject.kind, subject.id, 'max'), {
        ...update.build(),
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    if (counted === undefined) return undefined;
    written = counted.Attributes;
  }
  return Number(written?.views ?? 1);
}

/** The views on each subject's counters (by id): every counter read in BatchGetItems of 100 keys. */
export async function countedViews(kind: ViewSubject['kind'], ids: string[]): Promise<Map<string, number>> {
  const perId = VIEW_SHARDS + 1;
  const keys = ids.flatMap((id) => counterKeys(kind, id));
  const items = await batchGetItems(keys, ['views']);
  const views = new Map(items.map((item) => [`${item.pk}`, Number(item.views ?? 0)]));
  return new Map(
    ids.map((id, index) => [
      id,
      keys.slice(index * perId, (index + 1) * perId).reduce((sum, key) => sum + (views.get(key.pk) ?? 0), 0),
    ]),
  );
}

/** The views on a subject's shards (not `max`): what a limit set later starts from. */
export async function shardViews(kind: ViewSubject['kind'], id: string): Promise<number> {
  const items = await batchGetItems(shardKeys(kind, id), ['views']);
  return items.reduce((sum, item) => sum + Number(item.views ?? 0), 0);
}
