import { DescribeTableCommand, type DynamoDBClient, UpdateTableCommand } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type GetShardIteratorCommandInput,
  type _Record as StreamRecord,
} from '@aws-sdk/client-dynamodb-streams';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { tableDefinition } from '#shared/db/table';
import { passesStreamFilters, type StreamFunction, streamFunctions } from '#shared/routes/background';
import { loadHandler } from './dispatch.ts';
import { localClient } from './dynamodb.ts';
import type { StreamCheckpoint } from './stream-checkpoint.ts';

/**
 * What the stack's event source mappings do in AWS, from DynamoDB Local's stream (which has the
 * Streams API): every stream function (the view totals) gets the changes its filters pass, in
 * batches of its size, as Lambda's event, each batch retried from the record it reports failed up to
 * its `retryAttempts` (then skipped and logged, as AWS sends it to the failed-events queue).
 * `drain()` resolves once every change written before the call has been handed over: what the tests
 * wait for instead of sleeping; the runner drains every `intervalMs`.
 */
export interface TableStream {
  drain(): Promise<void>;
  /**
   * Moves the checkpoint past every change the stream holds now, handing none over: what a start
   * with a `DATA_DIR` that never had a checkpoint awaits before anything writes (the changes a
   * version before checkpoints already handed over; none on a new table).
   */
  skipHeld(): Promise<void>;
  /** Drains every `intervalMs` until the returned stop is called. */
  start(intervalMs: number): () => Promise<void>;
}

/** A table a version before the stream made (a kept `DATA_DIR`) gets it. */
export async function ensureStream(client: DynamoDBClient, tableName: string): Promise<void> {
  const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
  if (Table?.StreamSpecification?.StreamEnabled) return;
  await client.send(
    new UpdateTableCommand({
      TableName: tableName,
      StreamSpecification: { StreamEnabled: true, StreamViewType: tableDefinition.stream },
    }),
  );
}

type Invoke = (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse | undefined>;

/**
 * Without a `checkpoint` every shard is read from its beginning (a test's fresh table). With one
 * (the runner's, `stream-checkpoint.ts`) each shard resumes after the last record handed over, a
 * shard it does not name from its beginning.
 */
export function tableStream(
  endpoint: string,
  tableName: string,
  options: { checkpoint?: StreamCheckpoint; log?: (line: string) => void } = {},
): TableStream {
  const client = new DynamoDBStreamsClient({
    endpoint,
    region: 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const log = options.log ?? console.error;
  const iterators = new Map<string, string | undefined>();
  let streamArn: string | undefined;
  const { checkpoint } = options;
  /** Set by the stop: a batch that fails then is not retried (DynamoDB Local may be going too). */
  let stopping = false;

  async function deliver(fn: StreamFunction, records: StreamRecord[]): Promise<void> {
    const invoke = (await loadHandler(fn.handler)) as unknown as Invoke;
    const passed = records.filter((record) =>
      passesStreamFilters(fn.filters, unmarshall(record.dynamodb?.Keys ?? {})),
    );
    for (let offset = 0; offset < passed.length; offset += fn.batchSize) {
      let batch = passed.slice(offset, offset + fn.batchSize);
      for (let attempt = 0; batch.length > 0; attempt++) {
        const event = { Records: batch.map((record) => ({ ...record, eventSourceARN: streamArn })) };
        const failed = (await invoke(event as DynamoDBStreamEvent))?.batchItemFailures?.[0]?.itemIdentifier;
        const from = batch.findIndex((record) => record.dynamodb?.SequenceNumber === failed);
        if (from < 0) break;
        if (attempt === fn.retryAttempts || stopping) {
          log(`${fn.handler}: ${batch.length - from} stream records left after ${attempt} retries`);
          break;
        }
        batch = batch.slice(from);
      }
    }
  }

  async function shardIterator(shardId: string): Promise<string | undefined> {
    const from = (position: Omit<GetShardIteratorCommandInput, 'StreamArn' | 'ShardId'>) =>
      client.send(new GetShardIteratorCommand({ StreamArn: streamArn, ShardId: shardId, ...position }));
    const after = checkpoint?.after(shardId);
    if (!after) return (await from({ ShardIteratorType: 'TRIM_HORIZON' })).ShardIterator;
    try {
      return (await from({ ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: after }))
        .ShardIterator;
    } catch (error) {
      // Past the stream's 24 hours the record is gone, and with it everything before: the rest is new.
      if (!(error instanceof Error) || error.name !== 'TrimmedDataAccessException') throw error;
      return (await from({ ShardIteratorType: 'TRIM_HORIZON' })).ShardIterator;
    }
  }

  async function shardRecords(shardId: string): Promise<StreamRecord[]> {
    let iterator = iterators.has(shardId) ? iterators.get(shardId) : await shardIterator(shardId);
    const records: StreamRecord[] = [];
    while (iterator) {
      const page = await client.send(new GetRecordsCommand({ ShardIterator: iterator }));
      iterator = page.NextShardIterator;
      records.push(...(page.Records ?? []));
      if ((page.Records ?? []).length === 0) break;
    }
    iterators.set(shardId, iterator);
    return records;
  }

  /** Every shard's records since the last read, parents before children, and where each ended. */
  async function readShards(): Promise<{ records: StreamRecord[]; reached: Map<string, string> }> {
    if (!streamArn) {
      const tables = localClient(endpoint);
      const { Table } = await tables.send(new DescribeTableCommand({ TableName: tableName }));
      tables.destroy();
      streamArn = Table?.LatestStreamArn;
      if (!streamArn) throw new Error(`table ${tableName} has no stream`);
    }
    const { StreamDescription } = await client.send(new DescribeStreamCommand({ StreamArn: streamArn }));
    const records: StreamRecord[] = [];
    const reached = new Map<string, string>();
    // Parents before children (DynamoDB Local lists them so): a key's changes stay in order.
    for (const shard of StreamDescription?.Shards ?? []) {
      if (!shard.ShardId) continue;
      const read = await shardRecords(shard.ShardId);
      records.push(...read);
      const last = read.at(-1)?.dynamodb?.SequenceNumber;
      if (last) reached.set(shard.ShardId, last);
    }
    return { records, reached };
  }

  async function drainOnce(handOver: boolean): Promise<void> {
    const { records, reached } = await readShards();
    if (handOver) for (const fn of streamFunctions) await deliver(fn, records);
    for (const [shardId, sequenceNumber] of reached) checkpoint?.advance(shardId, sequenceNumber);
    checkpoint?.save({ always: !handOver });
  }

  let draining: Promise<void> = Promise.resolve();
  const queue = (handOver: boolean) => {
    draining = draining.catch(() => undefined).then(() => drainOnce(handOver));
    return draining;
  };
  const drain = () => queue(true);
  return {
    drain,
    skipHeld: () => queue(false),
    start(intervalMs) {
      const timer = setInterval(() => {
        drain().catch((error: unknown) =>
          log(`table stream: ${error instanceof Error ? error.message : String(error)}`),
        );
      }, intervalMs);
      // Stopped before DynamoDB Local (start.ts stops in reverse order): the changes made since the
      // last poll are handed over now rather than at the next start.
      return async () => {
        clearInterval(timer);
        stopping = true;
        // A DynamoDB Local that a terminal's Ctrl-C stopped first has nothing more to give.
        await drain().catch(() => undefined);
        client.destroy();
      };
    },
  };
}
