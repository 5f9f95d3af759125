import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DynamoDBDocumentClient,
  paginateQuery,
  paginateScan,
  TransactWriteCommand,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { cancellationCodes } from '#shared/db/contention/cancellation';
import { FILE_PREFIX, FILE_STATS_PREFIX } from '#shared/db/keys/files';
import { COUNTER_WRITES } from '#shared/files/record/stats';

/**
 * Gives files recorded before the per-type counts existed (`FILESTATS#TYPE#<type>`, issue 36) their
 * share of them: each user whose counters item has no `typesCounted` mark is recounted once, from the
 * user's file items, and marked. Part of `npm run upgrade:data` (docs/stats.md, "Upgrading").
 *
 * A recount SETs each type's count to the number of the user's files of that type, so files counted
 * when they were uploaded are not counted twice, and running it again changes nothing. It never
 * overwrites a count a file write moved meanwhile: it reads the counters with their write counts
 * (`writes`, which every upload, delete and type change ADDs to), then the files, and writes only if
 * no counter it read was written in between (else it reads again): a condition, not a lock.
 */

type Transaction = NonNullable<TransactWriteCommandInput['TransactItems']>;

/** A transaction holds 100 items: the counters item's condition (or mark) and 99 types. */
const TYPES_PER_TRANSACTION = 99;
const ATTEMPTS = 10;

/** Recounts every user not counted yet; answers how many it recounted. */
export async function backfillTypeCounts(client: DynamoDBClient, tableName: string): Promise<number> {
  const documents = DynamoDBDocumentClient.from(client);
  let recounted = 0;
  const pages = paginateScan(
    { client: documents },
    {
      TableName: tableName,
      FilterExpression: 'sk = :counters AND attribute_not_exists(typesCounted)',
      ExpressionAttributeValues: { ':counters': FILE_STATS_PREFIX },
      ProjectionExpression: 'pk',
    },
  );
  for await (const page of pages) {
    for (const item of page.Items ?? []) {
      if (await recountTypes(documents, tableName, String(item.pk))) recounted++;
    }
  }
  return recounted;
}

async function* itemsOf(
  documents: DynamoDBDocumentClient,
  tableName: string,
  pk: string,
  prefix: string,
  projection: string,
  names: Record<string, string>,
) {
  const pages = paginateQuery(
    { client: documents },
    {
      TableName: tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': pk, ':prefix': prefix },
      ExpressionAttributeNames: names,
      ProjectionExpression: projection,
      ConsistentRead: true,
    },
  );
  for await (const page of pages) yield* page.Items ?? [];
}

/** The condition that a counters item is as it was read: the same writes (or none, or absent). */
function unchanged(read: Record<string, unknown> | undefined, values: Record<string, unknown>) {
  if (!read) return 'attribute_not_exists(pk)';
  if (read[COUNTER_WRITES] === undefined) return 'attribute_not_exists(#writes)';
  values[':writes'] = read[COUNTER_WRITES];
  return '#writes = :writes';
}

/** One user's recount; false when there was nothing to do (counted already, or the user is gone). */
async function recountTypes(documents: DynamoDBDocumentClient, tableName: string, pk: string) {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const counters = new Map<string, Record<string, unknown>>();
    const counterAttributes = { '#type': 'type', '#writes': COUNTER_WRITES };
    for await (const item of itemsOf(
      documents,
      tableName,
      pk,
      FILE_STATS_PREFIX,
      'sk, #type, #writes, typesCounted',
      counterAttributes,
    ))
      counters.set(String(item.sk), item);
    const stats = counters.get(FILE_STATS_PREFIX);
    if (!stats || stats.typesCounted !== undefined) return false;
    // The files' types, counted lower case as the uploads count them.
    const counts = new Map<string, { type: string; files: number }>();
    for await (const file of itemsOf(documents, tableName, pk, FILE_PREFIX, '#type', { '#type': 'type' })) {
      const type = String(file.type).toLowerCase();
      const sk = `${FILE_STATS_PREFIX}#TYPE#${type}`;
      counts.set(sk, { type, files: (counts.get(sk)?.files ?? 0) + 1 });
    }
    // A type counted before and without files now is set to 0.
    for (const [sk, item] of counters) {
      if (sk !== FILE_STATS_PREFIX && !counts.has(sk)) counts.set(sk, { type: String(item.type), files: 0 });
    }
    if (await writeCounts(documents, tableName, pk, stats, counters, [...counts])) return true;
  }
  throw new Error(`${pk}: its files kept changing during ${ATTEMPTS} recounts; run the upgrade again`);
}

/** The counts written, a transaction per 99 types, the last one marking the user counted. */
async function writeCounts(
  documents: DynamoDBDocumentClient,
  tableName: string,
  pk: string,
  stats: Record<string, unknown>,
  counters: Map<string, Record<string, unknown>>,
  counts: [string, { type: string; files: number }][],
): Promise<boolean> {
  const chunks = Array.from(
    { length: Math.max(1, Math.ceil(counts.length / TYPES_PER_TRANSACTION)) },
    (_, i) => counts.slice(i * TYPES_PER_TRANSACTION, (i + 1) * TYPES_PER_TRANSACTION),
  );
  for (const [index, chunk] of chunks.entries()) {
    const last = index === chunks.length - 1;
    const checkValues: Record<string, unknown> = {};
    const statsCondition = `attribute_exists(pk) AND attribute_not_exists(typesCounted) AND ${unchanged(stats, checkValues)}`;
    const transaction: Transaction = chunk.map(([sk, count]) => {
      const values: Record<string, unknown> = { ':files': count.files, ':type': count.type };
      return {
        Update: {
          TableName: tableName,
          Key: { pk, sk },
          UpdateExpression: 'SET files = :files, #type = :type',
          ConditionExpression: unchanged(counters.get(sk), values),
          ExpressionAttributeNames: {
            '#type': 'type',
            ...(counters.get(sk) ? { '#writes': COUNTER_WRITES } : {}),
          },
          ExpressionAttributeValues: values,
        },
      };
    });
    const names = { '#writes': COUNTER_WRITES };
    transaction.push(
      last
        ? {
            Update: {
              TableName: tableName,
              Key: { pk, sk: FILE_STATS_PREFIX },
              UpdateExpression: 'SET typesCounted = :now',
              ConditionExpression: statsCondition,
              ExpressionAttributeNames: names,
              ExpressionAttributeValues: { ...checkValues, ':now': new Date().toISOString() },
            },
          }
        : {
            ConditionCheck: {
              TableName: tableName,
              Key: { pk, sk: FILE_STATS_PREFIX },
              ConditionExpression: statsCondition,
              ExpressionAttributeNames: names,
              ...(Object.keys(checkValues).length > 0 ? { ExpressionAttributeValues: checkValues } : {}),
            },
          },
    );
    try {
      await documents.send(new TransactWriteCommand({ TransactItems: transaction }));
    } catch (error) {
      const codes = cancellationCodes(error);
      if (codes.includes('ConditionalCheckFailed') || codes.includes('TransactionConflict')) return false;
      throw error;
    }
  }
  return true;
}
