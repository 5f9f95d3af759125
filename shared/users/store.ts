import { randomBytes } from 'node:crypto';
import { getItem } from '#shared/db/client';
import { unlessConditionFails } from '#shared/db/expressions/conditions';
import type { UpdateBuilder } from '#shared/db/expressions/update';
import { legacyUsernameKey, userKey, usernameKey } from '#shared/db/keys/users';
import { updateIn, updateItem } from '#shared/db/table-calls';
import type { TransactItem } from '#shared/db/transact';
import { notFound } from '#shared/errors';
import type { UserRecord } from '#shared/users/model';

/**
 * The user item: its attributes, the reads of it, and how its updates are sent (each built with the
 * update builder by the module of what it changes). Creating a user is `creation.ts`, a PATCH's
 * changes `changes.ts`, sessions `sessions.ts`, sign-in methods `sign-in-methods.ts`, the avatar's
 * items `avatar-store.ts`, TOTP `mfa/totp-store.ts`, passkeys `passkeys/credentials.ts`.
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
  'sessionAgents',
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
    const userId = (await getItem(key, { consistent: true }))?.userId;
    if (typeof userId === 'string') return getUser(userId, { consistent: true });
  }
  return undefined;
}

/** The user item's update as an item of a transaction (its condition included). */
export const userItemUpdate = (userId: string, update: UpdateBuilder): TransactItem =>
  updateIn(userKey(userId), update.build());

/**
 * One conditional UpdateItem of a user item, returning the user as written; a failed condition is
 * thrown as DynamoDB reports it (callers that retry on it).
 */
export async function sendUserItemUpdate(userId: string, update: UpdateBuilder): Promise<UserRecord> {
  const result = await updateItem(userKey(userId), { ...update.build(), ReturnValues: 'ALL_NEW' });
  return fromItem(result.Attributes) as UserRecord;
}

/** The same, undefined when its condition failed (no such user, or not in the state required). */
export const tryUpdateUserItem = (userId: string, update: UpdateBuilder): Promise<UserRecord | undefined> =>
  unlessConditionFails(sendUserItemUpdate(userId, update));

/** The same, a failed condition a 404, as for a user that does not exist. */
export async function updateUserItem(userId: string, update: UpdateBuilder): Promise<UserRecord> {
  const updated = await tryUpdateUserItem(userId, update);
  if (!updated) throw notFound('user not found');
  return updated;
}
