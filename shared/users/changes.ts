import { UpdateBuilder } from '#shared/db/expressions/update';
import { userIndexKey, usernameKey } from '#shared/db/keys/users';
import { TransactionConditionFailed, transactWrite } from '#shared/db/transact';
import { invalid, notFound, ServiceError } from '#shared/errors';
import { avatarWrites } from '#shared/users/avatar/avatar-store';
import {
  type Avatar,
  type Quota,
  type Role,
  roleRank,
  TOTP_STATE_ATTRIBUTES,
  type UserRecord,
} from '#shared/users/model';
import { renameUsername, USERNAME_TAKEN } from '#shared/users/names/username-claims';
import { getUser, newTokenNonce, updateUserItem, userItemUpdate } from '#shared/users/store';

/** Changes to an existing user: a PATCH (its own or an admin's), and a new API token. */

export interface UserChanges {
  username?: string;
  /** A new password also replaces the API token (the token nonce). */
  passwordHash?: string;
  /** With a new password: the one session that survives (the caller's), or none. */
  keepSessionId?: string | undefined;
  /** Ends every session (admin password reset). */
  endAllSessions?: boolean;
  /** Keys to set; a `null` value removes that key. */
  view?: Record<string, string | boolean | null>;
  avatar?: Avatar | null;
  role?: Role;
  quota?: Quota | null;
  /** Turns TOTP off: the secret, the last step used and the recovery codes go. */
  disableTotp?: boolean;
  /** Applies the changes only while the user still has this role (the one an admin was allowed to act on). */
  expectedRole?: Role;
}

/** The user item's update for `changes`, as a builder the caller adds its condition to. */
function userUpdate(current: UserRecord, changes: UserChanges, now: string): UpdateBuilder {
  const update = new UpdateBuilder().set('updatedAt', now);
  if (changes.username !== undefined) update.set('username', changes.username);
  if (changes.passwordHash !== undefined) {
    update.set('passwordHash', changes.passwordHash);
    // Whoever holds the old token (a leaked uploader config, a stolen device) is out too.
    update.set('tokenNonce', newTokenNonce());
    const kept = changes.keepSessionId;
    const issuedAt = kept === undefined ? undefined : current.sessions[kept];
    const keeps = kept !== undefined && issuedAt !== undefined;
    update.set('sessions', keeps ? { [kept]: issuedAt } : {});
    const agent = keeps ? current.sessionAgents?.[kept] : undefined;
    update.set('sessionAgents', agent !== undefined && keeps ? { [kept]: agent } : {});
  } else if (changes.endAllSessions) {
    update.set('sessions', {});
    update.set('sessionAgents', {});
  }
  if (changes.role !== undefined) {
    // The listing index's band follows the role (the write is conditional on the role judged). Both
    // keys, so an item the upgrade has not reached yet joins the index.
    update.set('role', changes.role);
    for (const [attribute, value] of Object.entries(userIndexKey(roleRank(changes.role), current.id)))
      update.set(attribute, value);
  }
  if (changes.quota !== undefined) update.set('quota', changes.quota);
  if (changes.disableTotp) for (const attribute of TOTP_STATE_ATTRIBUTES) update.remove(attribute);
  // Each view key is its own path, so concurrent PATCHes of different keys both persist.
  for (const [key, value] of Object.entries(changes.view ?? {})) update.setOrRemove(['view', key], value);
  return update;
}

/**
 * Applies a PATCH to a user. A change to one item is a single conditional UpdateItem; a rename or
 * an avatar change touches several items and goes into one transaction with the user update, so a
 * taken username or any failure leaves everything as it was.
 */
export async function updateUser(current: UserRecord, changes: UserChanges): Promise<UserRecord> {
  const update = userUpdate(current, changes, new Date().toISOString());
  // A user being deleted takes no more writes, so nothing written now can outlive the deletion.
  update.when(`attribute_exists(pk) AND attribute_not_exists(${update.name('deletingAt')})`);
  if (changes.expectedRole !== undefined) {
    update.when(`${update.name('role')} = ${update.value(changes.expectedRole)}`);
  }
  const renamesConstraint =
    changes.username !== undefined && usernameKey(changes.username).pk !== usernameKey(current.username).pk;
  const rename = renamesConstraint
    ? renameUsername(current.username, changes.username as string, current.id)
    : { items: [], claimCount: 0 };
  const touchesOtherItems = renamesConstraint || changes.avatar !== undefined;

  if (!touchesOtherItems) {
    return updateUserItem(current.id, update);
  }

  // The username we are about to release must still be ours.
  update.when(`${update.name('username')} = ${update.value(current.username)}`);
  const items = [
    userItemUpdate(current.id, update),
    ...rename.items,
    ...(changes.avatar !== undefined ? avatarWrites(current.id, changes.avatar) : []),
  ];
  try {
    await transactWrite(items);
  } catch (error) {
    if (!(error instanceof TransactionConditionFailed)) throw error;
    if (error.failedIndexes.some((index) => index >= 1 && index <= rename.claimCount)) {
      throw invalid(USERNAME_TAKEN);
    }
    throw new ServiceError('conflict', 'the user was changed by another request, try again');
  }
  const updated = await getUser(current.id, { consistent: true });
  if (!updated) throw notFound('user not found');
  return updated;
}

export async function resetTokenNonce(userId: string): Promise<string> {
  const nonce = newTokenNonce();
  await updateUserItem(
    userId,
    new UpdateBuilder()
      .set('tokenNonce', nonce)
      .set('updatedAt', new Date().toISOString())
      .when('attribute_exists(pk)'),
  );
  return nonce;
}
