import { randomBytes, randomUUID } from 'node:crypto';
import { GetCommand, UpdateCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { documents, getItem, tableName } from '#shared/db/client';
import { isConditionFailure } from '#shared/db/conditions';
import { legacyUsernameKey, setupKey, userIndexKey, userKey, usernameKey } from '#shared/db/keys';
import { TransactionConditionFailed, transactWrite } from '#shared/db/transact';
import { UpdateBuilder } from '#shared/db/update';
import { forbidden, invalid, notFound, ServiceError } from '#shared/errors';
import { avatarWrites } from '#shared/users/avatar-store';
import { type Avatar, type Quota, type Role, roleRank, type UserRecord } from '#shared/users/model';
import { claimUsername, renameUsername } from '#shared/users/username-claims';

/**
 * A user item: create (with its username claims, and the setup marker for the first user), read,
 * change. Sessions are `sessions.ts`, the avatar's items `avatar-store.ts`.
 */

export const USERNAME_TAKEN = 'username is already taken';

const nowIso = () => new Date().toISOString();

/** The API token's stored part (`auth/token.ts` signs it): replacing it refuses the old token. */
export const newTokenNonce = () => randomBytes(24).toString('base64url');

export interface NewUser {
  username: string;
  passwordHash: string;
  role: Role;
  quota?: Quota | null;
  avatar?: Avatar | null;
}

/**
 * Creates a user, its username constraint item and (optionally) the avatar in one transaction, so a
 * taken username writes nothing. With `firstUser`, the setup marker is part of the same transaction:
 * of two racing first-run calls exactly one succeeds.
 */
export async function createUser(input: NewUser, options: { firstUser?: boolean } = {}): Promise<UserRecord> {
  const now = nowIso();
  const user: UserRecord = {
    id: randomUUID(),
    username: input.username,
    passwordHash: input.passwordHash,
    role: input.role,
    view: {},
    quota: input.quota ?? null,
    totpSecret: null,
    oauthProviders: [],
    passkeys: [],
    sessions: {},
    tokenNonce: newTokenNonce(),
    createdAt: now,
    updatedAt: now,
  };
  const claims = claimUsername(user.username, user.id);
  const items = [
    {
      Put: {
        TableName: tableName,
        Item: { ...userKey(user.id), ...userIndexKey(roleRank(user.role), user.id), ...user },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    ...claims,
    ...(options.firstUser
      ? [
          {
            Put: {
              TableName: tableName,
              Item: { ...setupKey, userId: user.id, createdAt: now },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
        ]
      : []),
    ...(input.avatar ? avatarWrites(user.id, input.avatar) : []),
  ];
  try {
    await transactWrite(items);
  } catch (error) {
    if (!(error instanceof TransactionConditionFailed)) throw error;
    const claimCount = claims.length;
    if (options.firstUser && error.failedIndexes.includes(1 + claimCount)) {
      throw forbidden('setup has already been done');
    }
    if (error.failedIndexes.some((index) => index >= 1 && index <= claimCount)) throw invalid(USERNAME_TAKEN);
    throw error;
  }
  return user;
}

export async function isSetupDone(): Promise<boolean> {
  const result = await documents.send(
    new GetCommand({ TableName: tableName, Key: setupKey, ProjectionExpression: 'pk' }),
  );
  return result.Item !== undefined;
}

const USER_ATTRIBUTES = [
  'id',
  'username',
  'passwordHash',
  'role',
  'view',
  'quota',
  'totpSecret',
  'oauthProviders',
  'passkeys',
  'sessions',
  'tokenNonce',
  'createdAt',
  'updatedAt',
  'deletingAt',
] as const satisfies readonly (keyof UserRecord)[];

export function fromItem(item: Record<string, unknown> | undefined): UserRecord | undefined {
  if (!item) return undefined;
  const user = Object.fromEntries(USER_ATTRIBUTES.map((name) => [name, item[name]])) as unknown as UserRecord;
  user.sessions ??= {};
  user.view ??= {};
  return user;
}

/** One GetItem. Eventually consistent unless asked: callers re-read consistently before refusing. */
export async function getUser(
  userId: string,
  options: { consistent?: boolean } = {},
): Promise<UserRecord | undefined> {
  return fromItem(await getItem(userKey(userId), options));
}

/** Longer than any stored name's key can be (names are at most 64 characters): nobody has it. */
const MAX_USERNAME_KEY_BYTES = 1024;

/** By the folded name; a user whose claim predates folding is found under its lowercase key. */
export async function findUserByUsername(username: string): Promise<UserRecord | undefined> {
  const keys = [usernameKey(username), legacyUsernameKey(username)];
  for (const key of keys[0]?.pk === keys[1]?.pk ? keys.slice(0, 1) : keys) {
    if (Buffer.byteLength(key.pk) > MAX_USERNAME_KEY_BYTES) return undefined;
    const constraint = await documents.send(
      new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }),
    );
    const userId = constraint.Item?.userId;
    if (typeof userId === 'string') return getUser(userId, { consistent: true });
  }
  return undefined;
}

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
    update.set('sessions', kept !== undefined && issuedAt !== undefined ? { [kept]: issuedAt } : {});
  } else if (changes.endAllSessions) {
    update.set('sessions', {});
  }
  if (changes.role !== undefined) {
    update.set('role', changes.role);
    update.set('gsi1sk', userIndexKey(roleRank(changes.role), current.id).gsi1sk);
  }
  if (changes.quota !== undefined) update.set('quota', changes.quota);
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
  const update = userUpdate(current, changes, nowIso());
  // A user being deleted takes no more writes, so nothing written now can outlive the deletion.
  let condition = `attribute_exists(pk) AND attribute_not_exists(${update.name('deletingAt')})`;
  if (changes.expectedRole !== undefined) {
    condition += ` AND ${update.name('role')} = ${update.value(changes.expectedRole)}`;
  }
  const renamesConstraint =
    changes.username !== undefined && usernameKey(changes.username).pk !== usernameKey(current.username).pk;
  const rename = renamesConstraint
    ? renameUsername(current.username, changes.username as string, current.id)
    : { items: [], claimCount: 0 };
  const touchesOtherItems = renamesConstraint || changes.avatar !== undefined;

  if (!touchesOtherItems) {
    return updateUserItem(current.id, { ...update.build(), ConditionExpression: condition });
  }

  // The username we are about to release must still be ours.
  condition += ` AND ${update.name('username')} = ${update.value(current.username)}`;
  const items = [
    {
      Update: {
        TableName: tableName,
        Key: userKey(current.id),
        ...update.build(),
        ConditionExpression: condition,
      },
    },
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
  await updateUserItem(userId, {
    UpdateExpression: 'SET tokenNonce = :nonce, updatedAt = :now',
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeValues: { ':nonce': nonce, ':now': nowIso() },
  });
  return nonce;
}

/**
 * One conditional UpdateItem of a user item, returning the user as written. A failed condition (no
 * such user, or not in the state the caller required) is a 404, as for a user that does not exist.
 */
export async function updateUserItem(
  userId: string,
  update: Pick<
    UpdateCommandInput,
    'UpdateExpression' | 'ConditionExpression' | 'ExpressionAttributeNames' | 'ExpressionAttributeValues'
  >,
): Promise<UserRecord> {
  try {
    const result = await documents.send(
      new UpdateCommand({ TableName: tableName, Key: userKey(userId), ...update, ReturnValues: 'ALL_NEW' }),
    );
    return fromItem(result.Attributes) as UserRecord;
  } catch (error) {
    if (isConditionFailure(error)) throw notFound('user not found');
    throw error;
  }
}
