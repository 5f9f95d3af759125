import { BatchWriteCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { newTokenNonce } from '#shared/auth/token';
import { documents, tableName } from '#shared/db/client';
import { userKey, usernameKey } from '#shared/db/keys';
import { TransactionConditionFailed, transactWrite } from '#shared/db/transact';
import { notFound, ServiceError } from '#shared/errors';
import type { Role, UserRecord } from '#shared/users/model';
import { fromItem } from '#shared/users/store';

/** Items read per page of the user's partition; each page is deleted before the next is read. */
const PAGE_ITEMS = 100;
/** BatchWriteItem's limit. */
const BATCH_ITEMS = 25;
const MAX_BATCH_ATTEMPTS = 5;

/**
 * Deletes a user and everything in its partition (`pk = USER#<id>`: avatar chunks, and file metadata
 * once files exist), in an order that a retry after a failure at any step completes:
 *
 * 1. Mark the user item `deletingAt`, clear its sessions and replace its token nonce: from here on
 *    cookie, token and login are refused, and `updateUser` writes nothing more for this user.
 * 2. Delete every other item of the partition, one page and one batch at a time.
 * 3. Delete the user item and the username constraint in one transaction: the username is released
 *    exactly when the user is gone, never before (no orphan can block it; nothing is left to leak).
 *
 * A retry repeats all three steps; each is idempotent. `expectedRole` is the role the caller was
 * allowed to act on: a concurrent role change makes the deletion refuse (404) instead.
 */
export async function deleteUserCompletely(userId: string, expectedRole: Role): Promise<UserRecord> {
  const marked = await markDeleting(userId, expectedRole);
  await deletePartitionChildren(userId);
  try {
    await transactWrite([
      {
        Delete: {
          TableName: tableName,
          Key: userKey(userId),
          ConditionExpression: 'attribute_exists(deletingAt)',
        },
      },
      {
        Delete: {
          TableName: tableName,
          Key: usernameKey(marked.username),
          ConditionExpression: 'attribute_not_exists(pk) OR userId = :userId',
          ExpressionAttributeValues: { ':userId': userId },
        },
      },
    ]);
  } catch (error) {
    // Another request finished the same deletion first.
    if (error instanceof TransactionConditionFailed) throw notFound('user not found');
    throw error;
  }
  return marked;
}

async function markDeleting(userId: string, expectedRole: Role): Promise<UserRecord> {
  try {
    const result = await documents.send(
      new UpdateCommand({
        TableName: tableName,
        Key: userKey(userId),
        UpdateExpression:
          'SET deletingAt = if_not_exists(deletingAt, :now), #sessions = :none, tokenNonce = :nonce',
        ConditionExpression: 'attribute_exists(pk) AND #role = :role',
        ExpressionAttributeNames: { '#sessions': 'sessions', '#role': 'role' },
        ExpressionAttributeValues: {
          ':now': new Date().toISOString(),
          ':none': {},
          ':nonce': newTokenNonce(),
          ':role': expectedRole,
        },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return fromItem(result.Attributes) as UserRecord;
  } catch (error) {
    if (error instanceof Error && error.name === 'ConditionalCheckFailedException')
      throw notFound('user not found');
    throw error;
  }
}

async function deletePartitionChildren(userId: string): Promise<void> {
  const { pk, sk: userSk } = userKey(userId);
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await documents.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': pk },
        ProjectionExpression: 'pk, sk',
        ConsistentRead: true,
        Limit: PAGE_ITEMS,
        ExclusiveStartKey: startKey,
      }),
    );
    const children = (page.Items ?? []).filter((item) => item.sk !== userSk);
    for (let offset = 0; offset < children.length; offset += BATCH_ITEMS) {
      await deleteBatch(children.slice(offset, offset + BATCH_ITEMS).map((item) => ({ pk, sk: item.sk })));
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);
}

async function deleteBatch(keys: Record<string, unknown>[]): Promise<void> {
  let requests = keys.map((Key) => ({ DeleteRequest: { Key } }));
  for (let attempt = 1; requests.length > 0; attempt++) {
    if (attempt > MAX_BATCH_ATTEMPTS) {
      throw new ServiceError('unavailable', 'the user could not be deleted completely, try again', {
        'retry-after': '1',
      });
    }
    if (attempt > 1) await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** attempt * Math.random()));
    const result = await documents.send(new BatchWriteCommand({ RequestItems: { [tableName]: requests } }));
    requests = (result.UnprocessedItems?.[tableName] ?? []).flatMap((request) =>
      request.DeleteRequest?.Key ? [{ DeleteRequest: { Key: request.DeleteRequest.Key } }] : [],
    );
  }
}
