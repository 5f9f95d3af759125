import { goneOrHeldBy } from '#shared/db/expressions/conditions';
import { passkeyKey } from '#shared/db/keys/users';
import { deleteIn } from '#shared/db/table-calls';
import type { TransactItem } from '#shared/db/transact';
import type { UserRecord } from '#shared/users/model';

/**
 * Deletes a passkey's credential item (`PASSKEY#<id>`) in a transaction, unless another user's (one
 * already gone is skipped). Here, beside the user, because a user's deletion releases them too.
 */
export function releasePasskey(passkeyId: string, userId: string): TransactItem {
  return deleteIn(passkeyKey(passkeyId), goneOrHeldBy(userId));
}

/** The user's credentials, deleted with the user. */
export const releasePasskeys = (user: UserRecord): TransactItem[] =>
  user.passkeys.map((passkey) => releasePasskey(passkey.id, user.id));
