import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { documents, tableName } from '#shared/db/client';
import { LIVE_USER } from '#shared/db/conditions';
import { passkeyKey, userKey } from '#shared/db/keys';
import { TransactionConditionFailed, transactWrite } from '#shared/db/transact';
import { conflict, invalid, notFound } from '#shared/errors';
import type { PasskeyEntry, UserRecord } from '#shared/users/model';
import { otherSignInMethods, signInMethodsUnchanged } from '#shared/users/oauth-links';
import { releasePasskey } from '#shared/users/passkey-claims';
import { getUser } from '#shared/users/store';

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
  try {
    await transactWrite([
      {
        Put: {
          TableName: tableName,
          Item: {
            ...passkeyKey(credential.id),
            userId: user.id,
            publicKey: Buffer.from(credential.publicKey).toString('base64url'),
            counter: credential.counter,
            transports: credential.transports,
            rpId: credential.rpId,
            createdAt: entry.createdAt,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      {
        Update: {
          TableName: tableName,
          Key: userKey(user.id),
          UpdateExpression:
            'SET #passkeys = list_append(if_not_exists(#passkeys, :none), :entry), #updatedAt = :now',
          ConditionExpression: `${LIVE_USER} AND (attribute_not_exists(#passkeys) OR size(#passkeys) < :max)`,
          ExpressionAttributeNames: { '#passkeys': 'passkeys', '#updatedAt': 'updatedAt' },
          ExpressionAttributeValues: {
            ':none': [],
            ':entry': [entry],
            ':now': entry.createdAt,
            ':max': MAX_PASSKEYS,
          },
        },
      },
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
  try {
    await transactWrite([
      {
        Update: {
          TableName: tableName,
          Key: userKey(user.id),
          UpdateExpression: `SET #passkeys[${index}].#name = :name, #updatedAt = :now`,
          ConditionExpression: `${LIVE_USER} AND #passkeys[${index}].#id = :id`,
          ExpressionAttributeNames: {
            '#passkeys': 'passkeys',
            '#name': 'name',
            '#id': 'id',
            '#updatedAt': 'updatedAt',
          },
          ExpressionAttributeValues: { ':name': name, ':id': passkeyId, ':now': new Date().toISOString() },
        },
      },
    ]);
  } catch (error) {
    if (error instanceof TransactionConditionFailed) throw conflict(CHANGED);
    throw error;
  }
  return reread(user);
}

export const LAST_PASSKEY =
  'this passkey is the only way to sign in to the account: set a password, link a provider or add another passkey first';

/**
 * Deletes the passkey and its credential in one transaction, conditional on the account's ways to
 * sign in being as read, so concurrent removals never leave the account with none.
 */
export async function deletePasskey(user: UserRecord, passkeyId: string): Promise<UserRecord> {
  const { index } = entryOf(user, passkeyId);
  if (otherSignInMethods(user, { passkeyId }).length === 0) throw invalid(LAST_PASSKEY);
  const unchanged = signInMethodsUnchanged(user);
  try {
    await transactWrite([
      {
        Update: {
          TableName: tableName,
          Key: userKey(user.id),
          UpdateExpression: `REMOVE #signInPasskeys[${index}] SET #updatedAt = :now`,
          ConditionExpression: `${LIVE_USER} AND #signInPasskeys[${index}].#id = :id AND ${unchanged.condition}`,
          ExpressionAttributeNames: { ...unchanged.names, '#id': 'id', '#updatedAt': 'updatedAt' },
          ExpressionAttributeValues: {
            ...unchanged.values,
            ':id': passkeyId,
            ':now': new Date().toISOString(),
          },
        },
      },
      releasePasskey(passkeyId, user.id),
    ]);
  } catch (error) {
    if (error instanceof TransactionConditionFailed) throw conflict(CHANGED);
    throw error;
  }
  return reread(user);
}

/** The credential a sign-in presents, consistently read (a passkey just added signs in at once). */
export async function findCredential(credentialId: string): Promise<StoredCredential | undefined> {
  const { Item: item } = await documents.send(
    new GetCommand({ TableName: tableName, Key: passkeyKey(credentialId), ConsistentRead: true }),
  );
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
  try {
    await transactWrite([
      {
        Update: {
          TableName: tableName,
          Key: passkeyKey(credential.id),
          UpdateExpression: 'SET #counter = :new',
          ConditionExpression: 'userId = :userId AND #counter = :stored',
          ExpressionAttributeNames: { '#counter': 'counter' },
          ExpressionAttributeValues: {
            ':new': newCounter,
            ':stored': credential.counter,
            ':userId': user.id,
          },
        },
      },
      {
        Update: {
          TableName: tableName,
          Key: userKey(user.id),
          UpdateExpression: `SET #passkeys[${index}].#lastUsed = :now`,
          ConditionExpression: `${LIVE_USER} AND #passkeys[${index}].#id = :id`,
          ExpressionAttributeNames: { '#passkeys': 'passkeys', '#lastUsed': 'lastUsed', '#id': 'id' },
          ExpressionAttributeValues: { ':now': now, ':id': credential.id },
        },
      },
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
