import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { documents, tableName } from '#shared/db/client';
import { isWorkLeft, retry, WorkLeft } from '#shared/db/contention/retry';
import { counterKeys, type ViewSubject } from '#shared/views/counters';
import { totalKeys } from '#shared/views/totals';

/** Deletes items by key, 25 a BatchWriteItem, what DynamoDB leaves unprocessed again. */
async function deleteKeys(keys: Record<string, unknown>[]): Promise<void> {
  for (let offset = 0; offset < keys.length; offset += 25) {
    let requests: { DeleteRequest: { Key: Record<string, unknown> } }[] = keys
      .slice(offset, offset + 25)
      .map((Key) => ({ DeleteRequest: { Key } }));
    await retry({ attempts: 8, baseMs: 20, retryable: isWorkLeft }, async () => {
      const result = await documents.send(new BatchWriteCommand({ RequestItems: { [tableName]: requests } }));
      requests = (result.UnprocessedItems?.[tableName] ?? []).flatMap((request) =>
        request.DeleteRequest?.Key ? [{ DeleteRequest: { Key: request.DeleteRequest.Key } }] : [],
      );
      if (requests.length > 0) throw new WorkLeft();
    });
  }
}

/** Deletes the view counters of deleted links or files (their own partitions, outside the owner's). */
export const deleteViewCounters = (kind: ViewSubject['kind'], ids: string[]) =>
  deleteKeys(ids.flatMap((id) => counterKeys(kind, id)));

/** Deletes a deleted user's view totals. */
export const deleteViewTotals = (userId: string) => deleteKeys(totalKeys(userId));
