import { projectionOf } from '#shared/db/client';
import { UpdateBuilder } from '#shared/db/expressions/update';
import { pendingDeletionKey, userKey } from '#shared/db/keys/users';
import { deleteIn, deleteItem, deleteItems, queryItems, queryPages, updateIn } from '#shared/db/table-calls';
import { TransactionConditionFailed, transactWrite } from '#shared/db/transact';
import { notFound, ServiceError } from '#shared/errors';
import type { UserRecord } from '#shared/users/model';
import { releaseUsername } from '#shared/users/names/username-claims';
import { releaseIdentities } from '#shared/users/sign-in/oauth-links';
import { releasePasskeys } from '#shared/users/sign-in/passkey-claims';
import { getUser, newTokenNonce, userItemUpdate } from '#shared/users/store';

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
 * Marks the user item `deletingAt`, clears its sessions and replaces its token nonce, and records
 * the deletion as pending (`pendingDeletionKey`, with `contents` when the bytes are to go too), in
 * one transaction: from here on cookie, token and login are refused, neither `updateUser` nor any
 * file write (they check the mark in their transactions) writes anything more for this user, and
 * the worker finds the deletion if this request runs out of time. A concurrent change of the role
 * the caller was allowed to act on (`target.role`) makes it refuse (404). Answers the marked user, or
 * `target` marked when the user is gone by the time it is read again: the worker (or another
 * request) took the deletion up and finished it in between, which is what was asked.
 */
export async function markDeleting(target: UserRecord, contents: boolean): Promise<UserRecord> {
  const now = new Date().toISOString();
  try {
    const mark = new UpdateBuilder()
      .setIfAbsent('deletingAt', now)
      .set('sessions', {})
      .set('sessionAgents', {})
      .set('tokenNonce', newTokenNonce());
    mark.when(`attribute_exists(pk) AND ${mark.name('role')} = ${mark.value(target.role)}`);
    // Once asked for, deleting the bytes stays asked for.
    const pending = new UpdateBuilder().setIfAbsent('markedAt', now);
    if (contents) pending.set('contents', true);
    await transactWrite([
      userItemUpdate(target.id, mark),
      updateIn(pendingDeletionKey(target.id), pending.build()),
    ]);
  } catch (error) {
    if (error instanceof TransactionConditionFailed) throw notFound('user not found');
    throw error;
  }
  return (await getUser(target.id, { consistent: true })) ?? { ...target, deletingAt: now };
}

/** A deletion under way: its user, and whether the stored bytes go too. */
export interface PendingDeletion {
  userId: string;
  contents: boolean;
}

/** The deletions under way (consistent reads), oldest page first. */
export async function pendingDeletions(): Promise<PendingDeletion[]> {
  const deletions: PendingDeletion[] = [];
  const pages = queryPages({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': pendingDeletionKey('').pk },
    ConsistentRead: true,
  });
  for await (const page of pages) {
    for (const item of page.Items ?? []) {
      deletions.push({ userId: String(item.sk).slice('USER#'.length), contents: item.contents === true });
    }
  }
  return deletions;
}

/** Drops the record of a deletion whose user is gone (or was never marked). */
export async function forgetDeletion(userId: string): Promise<void> {
  await deleteItem(pendingDeletionKey(userId));
}

/** What a deletion does with each batch of the partition before deleting it. */
export interface BatchCleanup {
  /** Attributes the cleanup reads besides the keys. */
  attributes: string[];
  beforeDelete: (batch: Record<string, unknown>[]) => Promise<void>;
}

/**
 * Deletes every item of the user's partition but the user item (avatar chunks, file metadata,
 * counters, pending uploads), a page at a time while `timeLeft()` allows another; the page's
 * batches in parallel, each after `cleanup` has handled it. False when time ran out first (the next
 * call goes on from what is left).
 */
export async function deletePartitionChildren(
  userId: string,
  cleanup: BatchCleanup,
  timeLeft: () => boolean,
): Promise<boolean> {
  const { pk, sk: userSk } = userKey(userId);
  let exclusiveStartKey: Record<string, unknown> | undefined;
  do {
    if (!timeLeft()) return false;
    const page = await queryItems({
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': pk },
      ...projectionOf(['pk', 'sk', ...cleanup.attributes]),
      ConsistentRead: true,
      Limit: PAGE_ITEMS,
      ExclusiveStartKey: exclusiveStartKey,
    });
    const children = (page.Items ?? []).filter((item) => item.sk !== userSk);
    const batches: Record<string, unknown>[][] = [];
    for (let offset = 0; offset < children.length; offset += BATCH_ITEMS) {
      batches.push(children.slice(offset, offset + BATCH_ITEMS));
    }
    const done = await Promise.allSettled(
      batches.map(async (batch) => {
        await cleanup.beforeDelete(batch);
        await deleteBatch(batch.map((item) => ({ pk, sk: item.sk })));
      }),
    );
    const failure = done.find((result) => result.status === 'rejected');
    if (failure) throw failure.reason;
    exclusiveStartKey = page.LastEvaluatedKey;
  } while (exclusiveStartKey);
  return true;
}

/**
 * Deletes the user item, the username constraint, the linked provider accounts' constraints and the
 * passkeys' credentials in one transaction: the username and those accounts are released exactly
 * when the user is gone, never before (no orphan can block them; nothing is left to leak). A
 * condition fails only when the user item is gone: another run of the same deletion (the worker, or
 * a second request) finished it first, and this one is done too.
 */
export async function removeMarkedUser(user: UserRecord): Promise<void> {
  try {
    await transactWrite([
      deleteIn(userKey(user.id), { ConditionExpression: 'attribute_exists(deletingAt)' }),
      deleteIn(pendingDeletionKey(user.id)),
      ...releaseUsername(user.username, user.id),
      ...releaseIdentities(user),
      ...releasePasskeys(user),
    ]);
  } catch (error) {
    if (!(error instanceof TransactionConditionFailed)) throw error;
  }
}

/** A batch of the partition's items, deleted; a batch DynamoDB keeps leaving unprocessed fails the deletion for now. */
const deleteBatch = (keys: Record<string, unknown>[]) =>
  deleteItems(keys, {
    attempts: MAX_BATCH_ATTEMPTS,
    exhausted: () =>
      new ServiceError('unavailable', 'the user could not be deleted completely, try again', {
        'retry-after': '1',
      }),
  });
