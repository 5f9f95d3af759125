import {
  BatchWriteCommand,
  DeleteCommand,
  PutCommand,
  paginateQuery,
  QueryCommand,
  type QueryCommandInput,
  UpdateCommand,
  type UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { documents, inTable, ofTable, onTable } from '#shared/db/client';
import { isWorkLeft, type RetryPolicy, retry, WorkLeft } from '#shared/db/contention/retry';
import type { TransactItem } from '#shared/db/transact';

/**
 * The document client's calls and transaction items on the service's one table (named by `inTable`),
 * for entity modules, which send no command of their own; single reads are `getItem` (client.ts).
 */

type Key = Record<string, string>;

/** A condition with its placeholders, as the update builder and entity modules spell them. */
export interface Condition {
  ConditionExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: Record<string, unknown>;
  /** The item as it was when its condition refused the write, for the caller to read the refusal. */
  ReturnValuesOnConditionCheckFailure?: 'ALL_OLD';
}

/** One UpdateItem; `update` is an update builder's expression, with its condition if any. */
export const updateItem = (key: Key, update: Omit<UpdateCommandInput, 'TableName' | 'Key'>) =>
  documents.send(new UpdateCommand(inTable({ Key: key, ...update })));

/** One page of a query. */
export const queryItems = (query: Omit<QueryCommandInput, 'TableName'>) =>
  documents.send(new QueryCommand(inTable(query)));

/** Every page of a query, `pageSize` items a page if given. */
export const queryPages = (query: Omit<QueryCommandInput, 'TableName'>, pageSize?: number) =>
  paginateQuery({ client: documents, ...(pageSize === undefined ? {} : { pageSize }) }, inTable(query));

/** Transaction items on the table. */
export const putIn = (item: Record<string, unknown>, condition: Condition = {}): TransactItem => ({
  Put: inTable({ Item: item, ...condition }),
});
export const deleteIn = (key: Key, condition: Condition = {}): TransactItem => ({
  Delete: inTable({ Key: key, ...condition }),
});
export const updateIn = (key: Key, update: { UpdateExpression: string } & Condition): TransactItem => ({
  Update: inTable({ Key: key, ...update }),
});
export const checkIn = (
  key: Key,
  condition: Required<Pick<Condition, 'ConditionExpression'>> & Condition,
): TransactItem => ({
  ConditionCheck: inTable({ Key: key, ...condition }),
});

/** One DeleteItem, on `condition` if given. */
export const deleteItem = (key: Key, condition: Condition = {}) =>
  documents.send(new DeleteCommand(inTable({ Key: key, ...condition })));

/** One PutItem, on `condition` if given. */
export const putItem = (item: Record<string, unknown>, condition: Condition = {}) =>
  documents.send(new PutCommand(inTable({ Item: item, ...condition })));

/** Keys per BatchWriteItem, DynamoDB's limit. */
const BATCH_WRITE_SIZE = 25;

/**
 * Deletes items by key, 25 a BatchWriteItem one after another, sending again what DynamoDB leaves
 * unprocessed: up to `attempts` times a batch, then `exhausted()` is thrown (by default the retry's).
 */
export async function deleteItems(
  keys: Record<string, unknown>[],
  options: Pick<RetryPolicy, 'attempts' | 'exhausted'>,
): Promise<void> {
  for (let offset = 0; offset < keys.length; offset += BATCH_WRITE_SIZE) {
    let requests = keys.slice(offset, offset + BATCH_WRITE_SIZE).map((Key) => ({ DeleteRequest: { Key } }));
    await retry({ ...options, baseMs: 20, retryable: isWorkLeft }, async () => {
      const result = await documents.send(new BatchWriteCommand({ RequestItems: onTable(requests) }));
      requests = (ofTable(result.UnprocessedItems) ?? []).flatMap((request) =>
        request.DeleteRequest?.Key ? [{ DeleteRequest: { Key: request.DeleteRequest.Key } }] : [],
      );
      if (requests.length > 0) throw new WorkLeft();
    });
  }
}
