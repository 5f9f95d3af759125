import { NAME_CLAIM_ATTRIBUTES, releaseFileNames } from '#shared/files/name-claims';
import { deleteUserObjects } from '#shared/files/objects';
import { enforce } from '#shared/users/admin';
import { deletePartitionChildren, markDeleting, removeMarkedUser } from '#shared/users/deletion';
import type { Role, UserRecord } from '#shared/users/model';
import { judge, type Party } from '#shared/users/roles';

/**
 * An account is a user and everything it owns. Deleting one spans users and files, which never
 * import each other, so it is orchestrated here, above both: each step is the owner's own.
 */

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
 * 1. Mark the user (`markDeleting`): sessions, token and login refused, no more writes for it.
 * 2. Delete every other item of the partition, one page and one batch at a time; a batch's file name
 *    claims go before its file items (`releaseFileNames`).
 * 3. With `contents`, delete the objects under the user's bucket prefixes.
 * 4. Delete the user item and release the username in one transaction (`removeMarkedUser`).
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
  await deletePartitionChildren(userId, {
    attributes: NAME_CLAIM_ATTRIBUTES,
    beforeDelete: (batch) => releaseFileNames(userId, batch),
  });
  if (options.contents) await deleteUserObjects(userId);
  await removeMarkedUser(marked);
  return marked;
}
