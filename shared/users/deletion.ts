import { BatchWriteCommand, paginateQuery } from '@aws-sdk/lib-dynamodb';
import { documents, tableName } from '#shared/db/client';
import { userKey } from '#shared/db/keys';
import { isWorkLeft, retry, WorkLeft } from '#shared/db/retry';
import { TransactionConditionFailed, transactWrite } from '#shared/db/transact';
import { notFound, ServiceError } from '#shared/errors';
import type { Role, UserRecord } from '#shared/users/model';
import { releaseIdentities } from '#shared/users/oauth-links';
import { releasePasskeys } from '#shared/users/passkey-claims';
import { newTokenNonce, updateUserItem } from '#shared/users/store';
import { releaseUsername } from '#shared/users/username-claims';

/**
 * The user's steps of a deletion; `accounts/deletion.ts` runs them in order with the files' steps.
 * Each is idempotent, so a retry after a failure at any step completes the deletion.
 */

/** Items read per page of the user's partition; each page is deleted before the next is read. */
const PAGE_ITEMS = 100;
/** BatchWriteItem's limit. */
const BATCH_ITEMS = 25;
const MAX_BATCH_ATTEMPTS = 5;

/**
 * Marks the user item `deletingAt`, clears its sessions and replaces its token nonce: from here on
 * cookie, token and login are refused, and neither `updateUser` nor any file write (they check the
 * mark in their transactions) writes anything more for this user. A concurrent change of the role
 * the caller was allowed to act on makes it refuse (404).
 */
export function markDeleting(userId: string, expectedRole: Role): Promise<UserRecord> {
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

/** What a deletion does with each batch of the partition before deleting it. */
export interface BatchCleanup {
  /** Attributes the cleanup reads besides the keys. */
  attributes: string[];
  beforeDelete: (batch: Record<string, unknown>[]) => Promise<void>;
}

/**
 * Deletes every item of the user's partition but the user item (avatar chunks, file metadata,
 * counters, pending uploads), one page and one batch at a time, each batch after `cleanup` has
 * handled it.
 */
export async function deletePartitionChildren(userId: string, cleanup: BatchCleanup): Promise<void> {
  const { pk, sk: userSk } = userKey(userId);
  const names = Object.fromEntries(cleanup.attributes.map((name, index) => [`#a${index}`, name]));
  const pages = paginateQuery(
    { client: documents, pageSize: PAGE_ITEMS },
    {
      TableName: tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': pk },
      ProjectionExpression: ['pk', 'sk', ...Object.keys(names)].join(', '),
      ...(cleanup.attributes.length ? { ExpressionAttributeNames: names } : {}),
      ConsistentRead: true,
    },
  );
  for await (const page of pages) {
    const children = (page.Items ?? []).filter((item) => item.sk !== userSk);
    for (let offset = 0; offset < children.length; offset += BATCH_ITEMS) {
      const batch = children.slice(offset, offset + BATCH_ITEMS);
      await cleanup.beforeDelete(batch);
      await deleteBatch(batch.map((item) => ({ pk, sk: item.sk })));
    }
  }
}

/**
 * Deletes the user item, the username constraint, the linked provider accounts' constraints and the
 * passkeys' credentials in one transaction: the username and those accounts are released exactly
 * when the user is gone, never before (no orphan can block them; nothing is left to leak).
 */
export async function removeMarkedUser(user: UserRecord): Promise<void> {
  try {
    await transactWrite([
      {
        Delete: {
          TableName: tableName,
          Key: userKey(user.id),
          ConditionExpression: 'attribute_exists(deletingAt)',
        },
      },
      ...releaseUsername(user.username, user.id),
      ...releaseIdentities(user),
      ...releasePasskeys(user),
    ]);
  } catch (error) {
    // Another request finished the same deletion first.
    if (error instanceof TransactionConditionFailed) throw notFound('user not found');
    throw error;
  }
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
