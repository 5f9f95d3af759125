import { getItem } from '#shared/db/client';
import { LIVE_USER } from '#shared/db/expressions/conditions';
import { UpdateBuilder } from '#shared/db/expressions/update';
import { passkeyKey } from '#shared/db/keys/users';
import { putIn, updateIn } from '#shared/db/table-calls';
import { TransactionConditionFailed, transactWrite } from '#shared/db/transact';
import { conflict, invalid, notFound } from '#shared/errors';
import type { PasskeyEntry, UserRecord } from '#shared/users/model';
import { releasePasskey } from '#shared/users/sign-in/passkey-claims';
import { removeSignInMethod } from '#shared/users/sign-in/sign-in-methods';
import { getUser, userItemUpdate } from '#shared/users/store';

/**
 * Passkeys as stored (issue 15). The user item keeps the public list (`passkeys`: id, name, dates);
 * each credential has its own item (`PASSKEY#<credentialId>`: owner, public key, signature counter),
 * written and deleted in the same transaction as its list entry, so a sign-in finds the credential's
 * user by key and a credential belongs to one user.
 */

/** What a sign-in needs of a credential. The public key never leaves the server either. */
export interface StoredCredential {
  id: string;
  userId: string;
  /** COSE public key. */
  publicKey: Uint8Array<ArrayBuffer>;
  counter: number;
  transports: string[];
  /** The relying party it was registered with: it signs in only there. */
  rpId: string;
}

/** Keeps the user item small (DynamoDB's 400 KB holds the sessions and links too). */
export const MAX_PASSKEYS = 20;

export const PASSKEY_NOT_FOUND = 'passkey not found';
const CHANGED = 'the account changed meanwhile: reload and try again';
const PASSKEYS = 'passkeys';

export async function addPasskey(
  user: UserRecord,
  credential: Omit<StoredCredential, 'userId'>,
  name: string,
): Promise<UserRecord> {
  if (user.passkeys.length >= MAX_PASSKEYS)
    throw invalid(`an account has at most ${MAX_PASSKEYS} passkeys: delete one first`);
  const entry: PasskeyEntry = {
    id: credential.id,
    name,
    createdAt: new Date().toISOString(),
    lastUsed: null,
  };
  const addition = new UpdateBuilder().append(PASSKEYS, [entry]).set('updatedAt', entry.createdAt);
  const passkeys = addition.name(PASSKEYS);
  addition.when(
    `${LIVE_USER} AND (attribute_not_exists(${passkeys}) OR size(${passkeys}) < ${addition.value(MAX_PASSKEYS)})`,
  );
  try {
    await transactWrite([
      putIn(
        {
          ...passkeyKey(credential.id),
          userId: user.id,
          publicKey: Buffer.from(credential.publicKey).toString('base64url'),
          counter: credential.counter,
          transports: credential.transports,
          rpId: credential.rpId,
          createdAt: entry.createdAt,
        },
        { ConditionExpression: 'attribute_not_exists(pk)' },
      ),
      userItemUpdate(user.id, addition),
    ]);
  } catch (error) {
    if (!(error instanceof TransactionConditionFailed)) throw error;
    if (error.failedIndexes.includes(0)) throw conflict('this passkey is already registered');
    throw conflict(CHANGED);
  }
  return reread(user);
}

/** The user's passkey by id; another user's, or none: 404 (the same answer, so ids cannot be probed). */
function entryOf(user: UserRecord, passkeyId: string): { entry: PasskeyEntry; index: number } {
  const index = user.passkeys.findIndex((passkey) => passkey.id === passkeyId);
  const entry = user.passkeys[index];
  if (!entry) throw notFound(PASSKEY_NOT_FOUND);
  return { entry, index };
}

export async function renamePasskey(user: UserRecord, passkeyId: string, name: string): Promise<UserRecord> {
  const { index } = entryOf(user, passkeyId);
  const rename = new UpdateBuilder()
    .set([PASSKEYS, index, 'name'], name)
    .set('updatedAt', new Date().toISOString());
  try {
    await transactWrite([userItemUpdate(user.id, whenEntryIs(rename, index, passkeyId))]);
  } catch (error) {
    if (error instanceof TransactionConditionFailed) throw conflict(CHANGED);
    throw error;
  }
  return reread(user);
}

/** The condition that the list's entry at `index` is still the passkey read there, on a live user. */
function whenEntryIs(update: UpdateBuilder, index: number, passkeyId: string): UpdateBuilder {
  return update.when(`${LIVE_USER} AND ${update.ref([PASSKEYS, index, 'id'])} = ${update.value(passkeyId)}`);
}

export const LAST_PASSKEY =
  'this passkey is the only way to sign in to the account: set a password, link a provider or add another passkey first';

/**
 * Deletes the passkey and its credential in one transaction (`removeSignInMethod`: never the
 * account's last way to sign in, concurrent removals never leave it with none).
 */
export async function deletePasskey(user: UserRecord, passkeyId: string): Promise<UserRecord> {
  const { index } = entryOf(user, passkeyId);
  const update = new UpdateBuilder().remove([PASSKEYS, index]);
  update.when(`${update.ref([PASSKEYS, index, 'id'])} = ${update.value(passkeyId)}`);
  return removeSignInMethod(user, {
    method: { passkeyId },
    update,
    release: releasePasskey(passkeyId, user.id),
    lastMethodMessage: LAST_PASSKEY,
  });
}

/** The credential a sign-in presents, consistently read (a passkey just added signs in at once). */
export async function findCredential(credentialId: string): Promise<StoredCredential | undefined> {
  const item = await getItem(passkeyKey(credentialId), { consistent: true });
  if (
    !item ||
    typeof item.userId !== 'string' ||
    typeof item.publicKey !== 'string' ||
    typeof item.rpId !== 'string'
  )
    return undefined;
  return {
    id: credentialId,
    userId: item.userId,
    publicKey: new Uint8Array(Buffer.from(item.publicKey, 'base64url')),
    counter: Number(item.counter ?? 0),
    transports: Array.isArray(item.transports) ? item.transports.map(String) : [],
    rpId: item.rpId,
  };
}

/**
 * Records a sign-in: the credential's new signature counter, conditional on the stored one being
 * the one verified against (two sign-ins with one counter value: one wins), and when it was used,
 * conditional on the passkey still being in its user's list. False when either condition failed.
 */
export async function recordUse(
  user: UserRecord,
  credential: StoredCredential,
  newCounter: number,
): Promise<boolean> {
  const { index } = entryOf(user, credential.id);
  const now = new Date().toISOString();
  const counterUpdate = new UpdateBuilder().set('counter', newCounter);
  const counter = counterUpdate.name('counter');
  counterUpdate.when(
    `${counterUpdate.name('userId')} = ${counterUpdate.value(user.id)} AND ${counter} = ${counterUpdate.value(credential.counter)}`,
  );
  try {
    await transactWrite([
      updateIn(passkeyKey(credential.id), counterUpdate.build()),
      userItemUpdate(
        user.id,
        whenEntryIs(new UpdateBuilder().set([PASSKEYS, index, 'lastUsed'], now), index, credential.id),
      ),
    ]);
    return true;
  } catch (error) {
    if (error instanceof TransactionConditionFailed) return false;
    throw error;
  }
}

async function reread(user: UserRecord): Promise<UserRecord> {
  return (await getUser(user.id, { consistent: true })) ?? user;
}
