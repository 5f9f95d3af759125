import { BatchGetCommand, type QueryCommandInput, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { forEachConcurrently } from '#shared/concurrency';
import { documents, itemReader, projectionOf, tableName } from '#shared/db/client';
import { isWorkLeft, retry, WorkLeft } from '#shared/db/contention/retry';

/** Reads that any entity's listing uses: batched gets by key, and single query pages. */

/** An item's identity: one partition's items differ by `sk`, but a batch may span partitions. */
const keyOf = (key: Record<string, unknown>) => `${String(key.pk)}\u0000${String(key.sk)}`;

/** Items per BatchGetItem, and how many of those run at once. */
const BATCH_GET_SIZE = 100;
const BATCH_GET_CONCURRENCY = 8;

/**
 * Reads items by key in batches of 100 (8 at a time), retrying what DynamoDB leaves unprocessed.
 * Returns the items found, in key order; `attributes` limits what is sent back.
 */
export async function batchGetItems(
  keys: { pk: unknown; sk: unknown }[],
  attributes?: string[],
): Promise<Record<string, unknown>[]> {
  const found = new Map<string, Record<string, unknown>>();
  const batches: Record<string, unknown>[][] = [];
  for (let offset = 0; offset < keys.length; offset += BATCH_GET_SIZE) {
    batches.push(keys.slice(offset, offset + BATCH_GET_SIZE).map(({ pk, sk }) => ({ pk, sk })));
  }
  const projection = attributes ? projectionOf(['pk', 'sk', ...attributes]) : {};
  const readBatch = async (batch: Record<string, unknown>[]) => {
    let pending = batch;
    // Unprocessed keys are read again until none is left.
    await retry({ attempts: Number.POSITIVE_INFINITY, baseMs: 20, retryable: isWorkLeft }, async () => {
      const result = await documents.send(
        new BatchGetCommand({ RequestItems: { [tableName]: { Keys: pending, ...projection } } }),
      );
      for (const item of result.Responses?.[tableName] ?? []) found.set(keyOf(item), item);
      pending = result.UnprocessedKeys?.[tableName]?.Keys ?? [];
      if (pending.length > 0) throw new WorkLeft();
    });
  };
  await forEachConcurrently(batches, BATCH_GET_CONCURRENCY, readBatch);
  return keys.flatMap((key) => {
    const item = found.get(keyOf(key));
    return item ? [item] : [];
  });
}

type QueryPage = Pick<QueryCommandOutput, 'Items' | 'LastEvaluatedKey' | 'Count' | 'ConsumedCapacity'>;

/**
 * One page of a query, as the document client returns it (the listing code walks these), sent
 * through the item reader (db/item-reader.ts): the SDK's per-call machinery was about a third of a
 * file listing's CPU (docs/performance.md, issue 39).
 */
export async function queryPage(input: Omit<QueryCommandInput, 'TableName'>): Promise<QueryPage> {
  const { ExpressionAttributeValues: values, ExclusiveStartKey: start, ...rest } = input;
  const options = { removeUndefinedValues: true };
  const output = await itemReader.query({
    TableName: tableName,
    ...rest,
    ...(values ? { ExpressionAttributeValues: marshall(values, options) } : {}),
    ...(start ? { ExclusiveStartKey: marshall(start, options) } : {}),
  });
  return {
    Items: output.Items?.map((item) => unmarshall(item)),
    LastEvaluatedKey: output.LastEvaluatedKey && unmarshall(output.LastEvaluatedKey),
    Count: output.Count,
    ConsumedCapacity: output.ConsumedCapacity,
  };
}

/** Every page of a query, one `queryPage` after another. */
export async function* queryEveryPage(input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>) {
  let start: QueryPage['LastEvaluatedKey'];
  do {
    const page = await queryPage({ ...input, ...(start ? { ExclusiveStartKey: start } : {}) });
    yield page;
    start = page.LastEvaluatedKey;
  } while (start);
}
