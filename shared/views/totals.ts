import { UpdateBuilder } from '#shared/db/expressions/update';
import { viewTotalsKey } from '#shared/db/keys/views';
import { batchGetItems } from '#shared/db/reads';
import { updateIn } from '#shared/db/table-calls';
import { TransactionConditionFailed, transactWrite } from '#shared/db/transact';

/**
 * The views of a user's files and links, for `GET /api/user/stats` (docs/stats.md). No request
 * writes them: the table's stream feeds `views/totals` (functions/views/totals.ts), which folds a
 * batch's view changes per owner (stream-deltas.ts) and writes each owner's once per batch, here.
 * Earlier versions spread every view over `TOTAL_SHARDS` items; reading still sums them all, and
 * the stream's writes go to shard 0, at most one a batch per stream shard for an owner.
 */
export const TOTAL_SHARDS = 10;

/** One owner's change in a batch: views of their files and of their links (either may be negative). */
export interface OwnerDelta {
  files: number;
  links: number;
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

/**
 * An owner's totals update, marked with the batch (`lastBatch`) and refused when that batch is
 * already applied; a change that only takes views away is refused too where the owner has no
 * totals (a deleted user's files and links leaving after their totals did: nothing to recreate).
 */
function ownerUpdate(userId: string, delta: OwnerDelta, batch: string) {
  const update = new UpdateBuilder()
    .add('files', delta.files)
    .add('links', delta.links)
    .set('lastBatch', batch);
  const marker = update.name('lastBatch');
  const notApplied = `(attribute_not_exists(${marker}) OR ${marker} <> ${update.value(batch)})`;
  if (delta.files <= 0 && delta.links <= 0) update.when('attribute_exists(pk)');
  update.when(notApplied);
  return updateIn(viewTotalsKey(userId, 0), {
    ...update.build(),
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
  });
}

/**
 * Applies one batch's changes, one write per owner, all in one transaction (at most 100 owners: the
 * consumer's batch size), so a batch is applied whole or not at all. A batch already applied (a
 * retry of one whose answer was lost) is recognised by its mark on any of its owners and changes
 * nothing; owners refused for having no totals are left out and the rest applied.
 */
export async function applyOwnerDeltas(deltas: Map<string, OwnerDelta>, batch: string): Promise<void> {
  let owners = [...deltas].filter(([, delta]) => delta.files !== 0 || delta.links !== 0);
  if (owners.length > 100) throw new Error(`${owners.length} owners in one batch: at most 100`);
  while (owners.length > 0) {
    try {
      await transactWrite(owners.map(([userId, delta]) => ownerUpdate(userId, delta, batch)));
      return;
    } catch (error) {
      if (!(error instanceof TransactionConditionFailed)) throw error;
      // Applied whole or not at all: one owner marked with this batch means all of them were.
      if (error.returnedItems.some((item) => item?.lastBatch === batch)) return;
      owners = owners.filter((_, index) => !error.failedIndexes.includes(index));
    }
  }
}
