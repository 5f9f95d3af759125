import { passkeyKey } from '#shared/db/keys/users';
import type { TransactItem } from '#shared/db/transact';
import type { UserRecord } from '#shared/users/model';

/**
 * Deletes a passkey's credential item (`PASSKEY#<id>`) in a transaction, unless another user's (one
 * already gone is skipped). Here, beside the user, because a user's deletion releases them too.
 */
export function releasePasskey(passkeyId: string, userId: string): TransactItem {
  return {
    Delete: {
      Key: passkeyKey(passkeyId),
      ConditionExpression: 'attribute_not_exists(pk) OR userId = :userId',
      ExpressionAttributeValues: { ':userId': userId },
    },
  };
}

/** The user's credentials, deleted with the user. */
export const releasePasskeys = (user: UserRecord): TransactItem[] =>
  user.passkeys.map((passkey) => releasePasskey(passkey.id, user.id));
