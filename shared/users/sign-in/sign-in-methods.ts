import { LIVE_USER } from '#shared/db/expressions/conditions';
import type { UpdateBuilder } from '#shared/db/expressions/update';
import { type TransactItem, TransactionConditionFailed, transactWrite } from '#shared/db/transact';
import { conflict, invalid } from '#shared/errors';
import { NO_PASSWORD, type UserRecord } from '#shared/users/model';
import { getUser, userItemUpdate } from '#shared/users/store';

/**
 * The ways to sign in to an account (a password, linked providers, passkeys) and the one mechanism
 * that takes one of them away: unlinking a provider (users/sign-in/oauth-links.ts) and deleting a passkey
 * (passkeys/credentials.ts) both go through `removeSignInMethod`, so the rule "never remove the
 * last way to sign in" is written once, and so is the condition that keeps two concurrent removals
 * from both passing it.
 */

/** What a change takes away from the account's ways to sign in: a provider, or one passkey. */
export type SignInMethod = { provider: string } | { passkeyId: string };

/** The ways besides `leaving` the user could still sign in with: the password, the other providers, the other passkeys. */
export function otherSignInMethods(user: UserRecord, leaving: SignInMethod): string[] {
  const provider = 'provider' in leaving ? leaving.provider : undefined;
  const passkeyId = 'passkeyId' in leaving ? leaving.passkeyId : undefined;
  return [
    ...(user.passwordHash !== NO_PASSWORD ? ['password'] : []),
    ...user.oauthProviders.filter((link) => link.provider !== provider).map((link) => link.provider),
    ...user.passkeys.filter((passkey) => passkey.id !== passkeyId).map(() => 'passkey'),
  ];
}

export const LAST_SIGN_IN_METHOD =
  'this is the only way to sign in to the account: set a password, link another provider or add a passkey first';

const CHANGED = 'the account changed meanwhile: reload and try again';

/**
 * The condition that the user's ways to sign in are still those read (the password hash, the number
 * of links and of passkeys), so that two concurrent removals can never both pass
 * `otherSignInMethods` and leave the account with none.
 */
function whenSignInMethodsUnchanged(update: UpdateBuilder, user: UserRecord): void {
  const links = update.name('oauthProviders');
  const passkeys = update.name('passkeys');
  update.when(`${update.name('passwordHash')} = ${update.value(user.passwordHash)}`);
  update.when(
    `(attribute_not_exists(${links}) OR size(${links}) = ${update.value(user.oauthProviders.length)})`,
  );
  update.when(
    `(attribute_not_exists(${passkeys}) OR size(${passkeys}) = ${update.value(user.passkeys.length)})`,
  );
}

export interface SignInMethodRemoval {
  method: SignInMethod;
  /** The user item's change: removes the method's entry, on the condition that it is the one read. */
  update: UpdateBuilder;
  /** The write that frees what the method held outside the user item (its constraint item). */
  release: TransactItem;
  /** The refusal when it is the account's last way to sign in. */
  lastMethodMessage?: string;
}

/**
 * Removes a way to sign in: refused (400) when it is the account's last, otherwise the user item's
 * change and the release in one transaction, conditional on the user being live and its ways to
 * sign in being as read; a concurrent change is a 409. Returns the user as written.
 */
export async function removeSignInMethod(
  user: UserRecord,
  removal: SignInMethodRemoval,
): Promise<UserRecord> {
  if (otherSignInMethods(user, removal.method).length === 0)
    throw invalid(removal.lastMethodMessage ?? LAST_SIGN_IN_METHOD);
  const { update } = removal;
  update.set('updatedAt', new Date().toISOString()).when(LIVE_USER);
  whenSignInMethodsUnchanged(update, user);
  try {
    await transactWrite([userItemUpdate(user.id, update), removal.release]);
  } catch (error) {
    if (error instanceof TransactionConditionFailed) throw conflict(CHANGED);
    throw error;
  }
  return (await getUser(user.id, { consistent: true })) ?? user;
}
