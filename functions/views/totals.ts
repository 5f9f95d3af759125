import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { loggableError, logger } from '#shared/log/logger';
import { foldViewChanges, type ItemChange } from '#shared/views/stream-deltas';
import { applyOwnerDeltas } from '#shared/views/totals';

type Image = Parameters<typeof unmarshall>[0];
const plain = (image: unknown) => (image ? unmarshall(image as Image) : undefined);

const change = (record: DynamoDBRecord): ItemChange => ({
  keys: plain(record.dynamodb?.Keys) ?? {},
  before: plain(record.dynamodb?.OldImage),
  after: plain(record.dynamodb?.NewImage),
});

/**
 * The owners' view totals from the table's stream (docs/stats.md, "Views"): the stream's filter
 * passes only the items that hold views (shared/routes/background.ts); the batch's changes are
 * summed per owner and written in one transaction marked with the batch. A failure reports the
 * batch's first record, so Lambda retries it whole (nothing of it was applied) until it lands in the
 * failed-events queue.
 */
export const handler = async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
  const records = event.Records;
  const first = records[0]?.dynamodb?.SequenceNumber;
  const last = records.at(-1)?.dynamodb?.SequenceNumber;
  if (first === undefined) return { batchItemFailures: [] };
  try {
    await applyOwnerDeltas(foldViewChanges(records.map(change)), `${first}-${last}-${records.length}`);
    return { batchItemFailures: [] };
  } catch (error) {
    logger.error('view totals not written', { records: records.length, error: loggableError(error) });
    return { batchItemFailures: [{ itemIdentifier: first }] };
  }
};
