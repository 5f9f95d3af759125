import { deleteFilesBytes, deleteUserObjects, FILE_BYTES_ATTRIBUTES } from '#shared/files/bucket/objects';
import { NAME_CLAIM_ATTRIBUTES, releaseFileNames } from '#shared/files/record/name-claims';
import { POPULAR_RELEASE_ATTRIBUTES, releasePopularCounters } from '#shared/files/serve/popular-views';
import { FOLDER_RELEASE_ATTRIBUTES, releaseFolders } from '#shared/folders/release';
import { LINK_RELEASE_ATTRIBUTES, releaseLinks } from '#shared/links/route-items';
import { enforce } from '#shared/users/admin';
import {
  deletePartitionChildren,
  forgetDeletion,
  markDeleting,
  pendingDeletions,
  removeMarkedUser,
} from '#shared/users/deletion';
import type { UserRecord } from '#shared/users/model';
import { judge, type Party } from '#shared/users/roles';
import { getUser } from '#shared/users/store';
import { deleteViewTotals } from '#shared/views/cleanup';

/**
 * An account is a user and everything it owns. Deleting one spans users and files, which never
 * import each other, so it is orchestrated here, above both: each step is the owner's own.
 */

export interface DeletionOptions {
  /** Also delete the stored file contents (`{"delete": true}`); without it the bytes stay in the bucket. */
  contents: boolean;
}

/** Whether a deletion finished, and the user it deleted (as marked). */
export interface DeletionResult {
  user: UserRecord;
  done: boolean;
}

/**
 * The time a step may start in: true while `remainingMs()` (the function's time left, Lambda's
 * `getRemainingTimeInMillis`) leaves room for one more page of work and the answer.
 */
export const whileTimeLeft =
  (remainingMs: () => number, reserveMs = STEP_RESERVE_MS): (() => boolean) =>
  () =>
    remainingMs() > reserveMs;

/**
 * What a step may take at most: a page of 100 items (100 name claims and 4 batches at once) or a
 * listing page and a DeleteObjects of 1,000 objects, with room left to answer.
 */
const STEP_RESERVE_MS = 3000;

/**
 * The admin operation behind `DELETE /api/users/{id}`. It lives here, not with the other admin
 * operations, so that only the deleting functions bundle the S3 client (the others have no bucket).
 */
export async function deleteUserAs(
  actor: Party,
  target: UserRecord,
  options: DeletionOptions,
  timeLeft: () => boolean,
): Promise<DeletionResult> {
  enforce(judge(actor, 'delete', target));
  return deleteUserCompletely(target, options, timeLeft);
}

/**
 * Deletes a user and everything in its partition (`pk = USER#<id>`: avatar chunks, file metadata,
 * counters, pending uploads, short links, folders) plus the name claims of its files, the names and
 * view counters of its short links and its folders' owner and member items, which live outside it, in an order
 * that a retry after a failure at any step completes:
 *
 * 1. Mark the user (`markDeleting`): sessions, token and login refused, no more writes for it; the
 *    deletion recorded as pending, for the worker (`continueDeletions`).
 * 2. Delete every other item of the partition, a page at a time; a batch's file name claims (and
 *    with `contents`, its files' bytes and thumbnails) go before its file items.
 * 3. With `contents`, delete what is left under the user's bucket prefixes (listed).
 * 4. Delete the user item, the pending record and the username in one transaction (`removeMarkedUser`).
 *
 * Steps 2 and 3 stop when `timeLeft()` says so (`done: false`); the worker, or the same request
 * again, goes on from there. A retry repeats every step; each is idempotent, and runs of the same
 * deletion at once (a request and the worker, which takes up every marked deletion) both end done.
 * `target` is the user as the caller was allowed to act on it: a concurrent role change makes the
 * deletion refuse (404).
 */
export async function deleteUserCompletely(
  target: UserRecord,
  options: DeletionOptions,
  timeLeft: () => boolean,
): Promise<DeletionResult> {
  const marked = await markDeleting(target, options.contents);
  return { user: marked, done: await finishDeletion(marked, options.contents, timeLeft) };
}

async function finishDeletion(marked: UserRecord, contents: boolean, timeLeft: () => boolean) {
  const cleanup = {
    attributes: [
      ...NAME_CLAIM_ATTRIBUTES,
      ...FILE_BYTES_ATTRIBUTES,
      ...LINK_RELEASE_ATTRIBUTES,
      ...FOLDER_RELEASE_ATTRIBUTES,
      ...POPULAR_RELEASE_ATTRIBUTES,
    ],
    beforeDelete: async (batch: Record<string, unknown>[]) => {
      await releaseFileNames(marked.id, batch);
      await releaseLinks(batch);
      await releaseFolders(batch);
      await releasePopularCounters(batch);
      if (contents) await deleteFilesBytes(batch);
    },
  };
  if (!(await deletePartitionChildren(marked.id, cleanup, timeLeft))) return false;
  if (contents && !(await deleteUserObjects(marked.id, timeLeft))) return false;
  await deleteViewTotals(marked.id);
  await removeMarkedUser(marked);
  return true;
}

/**
 * The worker's part: goes on with every deletion under way, one after the other, while `timeLeft()`
 * allows. A deletion whose user is gone (finished meanwhile) or not marked is forgotten. Answers how
 * many were finished and how many are left for the next run.
 */
export async function continueDeletions(
  timeLeft: () => boolean,
): Promise<{ finished: number; left: number }> {
  const pending = await pendingDeletions();
  let finished = 0;
  for (const deletion of pending) {
    if (!timeLeft()) break;
    const user = await getUser(deletion.userId, { consistent: true });
    if (!user?.deletingAt) {
      await forgetDeletion(deletion.userId);
      continue;
    }
    if (await finishDeletion(user, deletion.contents, timeLeft)) finished++;
  }
  return { finished, left: pending.length - finished };
}
