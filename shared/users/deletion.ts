import { BatchWriteCommand, DeleteCommand, paginateQuery } from '@aws-sdk/lib-dynamodb';
import { newTokenNonce } from '#shared/auth/token';
import { documents, tableName } from '#shared/db/client';
import { unlessConditionFails } from '#shared/db/conditions';
import { FILE_PREFIX, fileNameKey, userKey } from '#shared/db/keys';
import { isWorkLeft, retry, WorkLeft } from '#shared/db/retry';
import { TransactionConditionFailed, transactWrite } from '#shared/db/transact';
import { notFound, ServiceError } from '#shared/errors';
import { deleteUserObjects } from '#shared/files/objects';
import { enforce } from '#shared/users/admin';
import type { Role, UserRecord } from '#shared/users/model';
import { judge, type Party } from '#shared/users/roles';
import { updateUserItem } from '#shared/users/store';
import { releaseUsername } from '#shared/users/username-claims';

/** Items read per page of the user's partition; each page is deleted before the next is read. */
const PAGE_ITEMS = 100;
/** BatchWriteItem's limit. */
const BATCH_ITEMS = 25;
const MAX_BATCH_ATTEMPTS = 5;

export interface DeletionOptions {
  /** Also delete the stored file contents (`{"delete": true}`); without it the bytes stay in the bucket. */
  contents: boolean;
}

/**
 * The admin operation behind `DELETE /api/users/{id}`. It lives here, not with the other admin
 * operations, so that only the deleting function bundles the S3 client (the others have no bucket).
 */
export async function deleteUserAs(
  actor: Party,
  target: UserRecord,
  options: DeletionOptions,
): Promise<UserRecord> {
  enforce(judge(actor, 'delete', target));
  return deleteUserCompletely(target.id, target.role, options);
}

/**
 * Deletes a user and everything in its partition (`pk = USER#<id>`: avatar chunks, file metadata,
 * counters, pending uploads) plus the name claims of its files, which live outside it, in an order
 * that a retry after a failure at any step completes:
 *
 * 1. Mark the user item `deletingAt`, clear its sessions and replace its token nonce: from here on
 *    cookie, token and login are refused, and neither `updateUser` nor any file write (they check the
 *    mark in their transactions) writes anything more for this user.
 * 2. Delete every other item of the partition, one page and one batch at a time; a batch's file name
 *    claims go before its file items (see `releaseFileNames`).
 * 3. With `contents`, delete the objects under the user's bucket prefixes.
 * 4. Delete the user item and the username constraint in one transaction: the username is released
 *    exactly when the user is gone, never before (no orphan can block it; nothing is left to leak).
 *
 * A retry repeats every step; each is idempotent. `expectedRole` is the role the caller was
 * allowed to act on: a concurrent role change makes the deletion refuse (404) instead.
 */
export async function deleteUserCompletely(
  userId: string,
  expectedRole: Role,
  options: DeletionOptions,
): Promise<UserRecord> {
  const marked = await markDeleting(userId, expectedRole);
  await deletePartitionChildren(userId);
  if (options.contents) await deleteUserObjects(userId);
  try {
    await transactWrite([
      {
        Delete: {
          TableName: tableName,
          Key: userKey(userId),
          ConditionExpression: 'attribute_exists(deletingAt)',
        },
      },
      ...releaseUsername(marked.username, userId),
    ]);
  } catch (error) {
    // Another request finished the same deletion first.
    if (error instanceof TransactionConditionFailed) throw notFound('user not found');
    throw error;
  }
  return marked;
}

function markDeleting(userId: string, expectedRole: Role): Promise<UserRecord> {
  return updateUserItem(userId, {
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
  });
}

async function deletePartitionChildren(userId: string): Promise<void> {
  const { pk, sk: userSk } = userKey(userId);
  const pages = paginateQuery(
    { client: documents, pageSize: PAGE_ITEMS },
    {
      TableName: tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': pk },
      // A file item's public name leads to its name claim.
      ProjectionExpression: 'pk, sk, #name',
      ExpressionAttributeNames: { '#name': 'name' },
      ConsistentRead: true,
    },
  );
  for await (const page of pages) {
    const children = (page.Items ?? []).filter((item) => item.sk !== userSk);
    for (let offset = 0; offset < children.length; offset += BATCH_ITEMS) {
      const batch = children.slice(offset, offset + BATCH_ITEMS);
      await releaseFileNames(userId, batch);
      await deleteBatch(batch.map((item) => ({ pk, sk: item.sk })));
    }
  }
}

/**
 * Deletes the name claims of the batch's file items. It runs before the batch itself: while a file
 * item exists, a retry still finds its claim through it. Each delete is conditional on the claim
 * still pointing at that file, because a released name can be claimed by another user's file before
 * a retry comes round to it again.
 */
async function releaseFileNames(userId: string, batch: Record<string, unknown>[]): Promise<void> {
  const releases = batch.flatMap((item) => {
    const sk = String(item.sk);
    if (!sk.startsWith(FILE_PREFIX) || typeof item.name !== 'string') return [];
    return [deleteNameClaim(userId, item.name, sk.slice(FILE_PREFIX.length))];
  });
  // Every delete settles before the batch goes on (or the failure is reported).
  const failure = (await Promise.allSettled(releases)).find((result) => result.status === 'rejected');
  if (failure) throw failure.reason;
}

async function deleteNameClaim(userId: string, name: string, fileId: string): Promise<void> {
  // Released already, or claimed since by another file: not this user's to delete.
  await unlessConditionFails(
    documents.send(
      new DeleteCommand({
        TableName: tableName,
        Key: fileNameKey(name),
        ConditionExpression: 'userId = :userId AND fileId = :fileId',
        ExpressionAttributeValues: { ':userId': userId, ':fileId': fileId },
      }),
    ),
  );
}

async function deleteBatch(keys: Record<string, unknown>[]): Promise<void> {
  let requests = keys.map((Key) => ({ DeleteRequest: { Key } }));
  await retry(
    {
      attempts: MAX_BATCH_ATTEMPTS,
      baseMs: 20,
      retryable: isWorkLeft,
      exhausted: () =>
        new ServiceError('unavailable', 'the user could not be deleted completely, try again', {
          'retry-after': '1',
        }),
    },
    async () => {
      const result = await documents.send(new BatchWriteCommand({ RequestItems: { [tableName]: requests } }));
      requests = (result.UnprocessedItems?.[tableName] ?? []).flatMap((request) =>
        request.DeleteRequest?.Key ? [{ DeleteRequest: { Key: request.DeleteRequest.Key } }] : [],
      );
      if (requests.length > 0) throw new WorkLeft();
    },
  );
}
