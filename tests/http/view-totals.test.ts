import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { getItem } from '#shared/db/client';
import { viewTotalsKey } from '#shared/db/keys/views';
import { ownerViews } from '#shared/views/totals';
import { handler } from '../../functions/views/totals.ts';
import { recordSdkCalls } from '../support/sdk-calls.ts';

/**
 * The owners' view totals from the table's stream (functions/views/totals.ts, docs/stats.md
 * "Views"), with stream events built as Lambda sends them: a batch's changes folded into one write
 * per owner (one transaction), a retried batch applied once, deletions taking views away, and a
 * deleted owner's leftovers recreating nothing.
 */
const recorder = recordSdkCalls();
let sequence = 0;

type Image = Record<string, unknown>;
function record(keys: { pk: string; sk: string }, before?: Image, after?: Image): DynamoDBRecord {
  sequence += 1;
  const image = (values?: Image) => values && (marshall({ ...keys, ...values }) as never);
  return {
    eventName: before && after ? 'MODIFY' : after ? 'INSERT' : 'REMOVE',
    dynamodb: {
      Keys: marshall(keys) as never,
      ...(before ? { OldImage: image(before) } : {}),
      ...(after ? { NewImage: image(after) } : {}),
      SequenceNumber: String(sequence).padStart(21, '0'),
    },
  };
}
const counter = (kind: 'FILEVIEWS' | 'LINKVIEWS', id: string, shard: number) => ({
  pk: `${kind}#${id}#${shard}`,
  sk: 'VIEWS',
});
const file = (owner: string, id: string) => ({ pk: `USER#${owner}`, sk: `FILE#${id}` });
const event = (...records: DynamoDBRecord[]): DynamoDBStreamEvent => ({ Records: records });
const writes = () =>
  recorder.calls.filter((call) => !call.command.startsWith('BatchGet') && !call.command.startsWith('Get'));

test('several views of several owners in one batch: one transaction, one update per owner, summed', async () => {
  const [alice, bob] = [`alice${Date.now()}`, `bob${Date.now()}`];
  recorder.reset();
  const batch = event(
    record(counter('LINKVIEWS', 'l1', 3), { views: 4, ownerId: alice }, { views: 5, ownerId: alice }),
    record(counter('LINKVIEWS', 'l1', 7), undefined, { views: 1, ownerId: alice }),
    record(counter('FILEVIEWS', 'f1', 2), { views: 9, ownerId: bob }, { views: 10, ownerId: bob }),
    record(file(alice, 'f2'), { views: 2, name: 'a' }, { views: 3, name: 'a' }),
    record(file(bob, 'f3'), { views: 7, name: 'b' }, { views: 7, name: 'renamed' }),
    record(file(bob, 'f4'), undefined, { views: 12, name: 'imported' }),
  );
  expect(await handler(batch)).toEqual({ batchItemFailures: [] });
  expect(writes().map((call) => call.command)).toEqual(['TransactWriteItemsCommand']);
  const items = (writes()[0]?.input.TransactItems ?? []) as { Update: { Key: { pk: string } } }[];
  expect(items.map((item) => item.Update.Key.pk).sort()).toEqual(
    [viewTotalsKey(alice, 0).pk, viewTotalsKey(bob, 0).pk].sort(),
  );
  expect(await ownerViews(alice)).toEqual({ files: 1, links: 2 });
  expect(await ownerViews(bob)).toEqual({ files: 13, links: 0 });

  // The same batch again (a retry of one whose answer was lost): nothing counted twice.
  expect(await handler(batch)).toEqual({ batchItemFailures: [] });
  expect(await ownerViews(alice)).toEqual({ files: 1, links: 2 });
  expect(await ownerViews(bob)).toEqual({ files: 13, links: 0 });

  // Deletions: a file item and a counter leave with their views.
  await handler(
    event(
      record(file(bob, 'f4'), { views: 12, name: 'imported' }),
      record(counter('LINKVIEWS', 'l1', 7), { views: 1, ownerId: alice }),
    ),
  );
  expect(await ownerViews(alice)).toEqual({ files: 1, links: 1 });
  expect(await ownerViews(bob)).toEqual({ files: 1, links: 0 });
});

test("a deleted owner's files leaving after their totals did recreate nothing; others in the batch count", async () => {
  const [gone, alive] = [`gone${Date.now()}`, `alive${Date.now()}`];
  const batch = event(
    record(file(gone, 'f1'), { views: 40 }),
    record(counter('FILEVIEWS', 'f2', 1), { views: 60, ownerId: gone }),
    record(counter('LINKVIEWS', 'l2', 0), undefined, { views: 1, ownerId: alive }),
  );
  expect(await handler(batch)).toEqual({ batchItemFailures: [] });
  expect(await getItem(viewTotalsKey(gone, 0), { consistent: true })).toBeUndefined();
  expect(await ownerViews(alive)).toEqual({ files: 0, links: 1 });
});

test('a counter written before counters named their owner, and items that hold no views, change nothing', async () => {
  recorder.reset();
  const batch = event(
    record(counter('FILEVIEWS', 'old', 1), { views: 3 }, { views: 4 }),
    record({ pk: 'FOLDER#x', sk: 'FILE#y' }, { views: 1 }, { views: 2 }),
  );
  expect(await handler(batch)).toEqual({ batchItemFailures: [] });
  expect(writes()).toEqual([]);
});
