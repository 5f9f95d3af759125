import { randomBytes } from 'node:crypto';
import { GetCommand, UpdateCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { documents, getItem, tableName } from '#shared/db/client';
import { isConditionFailure } from '#shared/db/conditions';
import { legacyUsernameKey, userKey, usernameKey } from '#shared/db/keys';
import { notFound } from '#shared/errors';
import type { UserRecord } from '#shared/users/model';

/**
 * The user item: its attributes, the reads of it, and its one conditional write. Creating a user is
 * `creation.ts`, a PATCH's changes `changes.ts`, sessions `sessions.ts`, the avatar's items
 * `avatar-store.ts`.
 */

/** The API token's stored part (`auth/token.ts` signs it): replacing it refuses the old token. */
export const newTokenNonce = () => randomBytes(24).toString('base64url');

const USER_ATTRIBUTES = [
  'id',
  'username',
  'passwordHash',
  'role',
  'view',
  'quota',
  'totpSecret',
  'totpLastStep',
  'totpRecovery',
  'totpEnrolments',
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
  user.oauthProviders ??= [];
  user.passkeys ??= [];
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
