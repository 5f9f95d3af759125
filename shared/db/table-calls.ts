import {
  DeleteCommand,
  GetCommand,
  paginateQuery,
  QueryCommand,
  type QueryCommandInput,
  UpdateCommand,
  type UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { documents, tableName } from '#shared/db/client';
import type { TransactItem } from '#shared/db/transact';

/**
 * The service's one table, named once: entity modules read, query and write through these calls
 * and transaction items and never set `TableName` themselves.
 */

type Key = Record<string, string>;

/** A condition with its placeholders, as the update builder and entity modules spell them. */
export interface Condition {
  ConditionExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: Record<string, unknown>;
}

/** One item by its key, as the document client reads it; undefined when there is none. */
export async function readItem(
  key: Key,
  options: { consistent?: boolean } = {},
): Promise<Record<string, unknown> | undefined> {
  const result = await documents.send(
    new GetCommand({ TableName: tableName, Key: key, ConsistentRead: options.consistent }),
  );
  return result.Item;
}

/** One UpdateItem; `update` is an update builder's expression, with its condition if any. */
export const updateItem = (key: Key, update: Omit<UpdateCommandInput, 'TableName' | 'Key'>) =>
  documents.send(new UpdateCommand({ TableName: tableName, Key: key, ...update }));

/** One page of a query. */
export const queryItems = (query: Omit<QueryCommandInput, 'TableName'>) =>
  documents.send(new QueryCommand({ TableName: tableName, ...query }));

/** Every page of a query, `pageSize` items a page if given. */
export const queryPages = (query: Omit<QueryCommandInput, 'TableName'>, pageSize?: number) =>
  paginateQuery(
    { client: documents, ...(pageSize === undefined ? {} : { pageSize }) },
    { TableName: tableName, ...query },
  );

/** Transaction items on the table. */
export const putIn = (item: Record<string, unknown>, condition: Condition = {}): TransactItem => ({
  Put: { TableName: tableName, Item: item, ...condition },
});
export const deleteIn = (key: Key, condition: Condition = {}): TransactItem => ({
  Delete: { TableName: tableName, Key: key, ...condition },
});
export const updateIn = (key: Key, update: { UpdateExpression: string } & Condition): TransactItem => ({
  Update: { TableName: tableName, Key: key, ...update },
});
export const checkIn = (
  key: Key,
  condition: Required<Pick<Condition, 'ConditionExpression'>> & Condition,
): TransactItem => ({
  ConditionCheck: { TableName: tableName, Key: key, ...condition },
});

/** One DeleteItem, on `condition` if given. */
export const deleteItem = (key: Key, condition: Condition = {}) =>
  documents.send(new DeleteCommand({ TableName: tableName, Key: key, ...condition }));
