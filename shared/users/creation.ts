import { randomUUID } from 'node:crypto';
import { getItem } from '#shared/db/client';
import { setupKey } from '#shared/db/keys/instance';
import { userIndexKey, userKey } from '#shared/db/keys/users';
import { putIn } from '#shared/db/table-calls';
import { type TransactItem, TransactionConditionFailed, transactWrite } from '#shared/db/transact';
import { conflict, forbidden, invalid } from '#shared/errors';
import { INVITE_REFUSED, inviteUse } from '#shared/invites/invites';
import { currentSettings } from '#shared/settings/current';
import { avatarWrites } from '#shared/users/avatar/avatar-store';
import {
  type Avatar,
  type Quota,
  type Role,
  roleRank,
  type UserRecord,
  type ViewSettings,
} from '#shared/users/model';
import { claimUsername, USERNAME_TAKEN } from '#shared/users/names/username-claims';
import {
  ALREADY_LINKED_ELSEWHERE,
  claimIdentity,
  linkedSetOf,
  newLink,
  type ProviderIdentity,
} from '#shared/users/sign-in/oauth-links';
import { newTokenNonce } from '#shared/users/store';

/** A new user, with its username claims, and the setup marker the first user leaves behind. */

export interface NewUser {
  username: string;
  passwordHash: string;
  role: Role;
  quota?: Quota | null;
  avatar?: Avatar | null;
  /** A provider sign-in's account (sign-up by provider): linked, and claimed, in the same transaction. */
  identity?: ProviderIdentity;
  /** A registration's invite code (issue 38): one use counted in the same transaction, or nothing. */
  inviteCode?: string;
  /** An imported account's own view settings and creation time (issue 40), instead of the defaults. */
  view?: ViewSettings;
  createdAt?: string;
  /** Items joining the transaction last (an import's mapping claim): their failure is thrown as is. */
  extra?: (user: UserRecord) => TransactItem[];
}

/** The server's `usersDefaultView` (issue 38): the view settings every new account starts with. */
async function defaultView(): Promise<ViewSettings> {
  const { usersDefaultView } = await currentSettings();
  return Object.fromEntries(Object.entries(usersDefaultView).filter(([, value]) => value !== null));
}

/**
 * Creates a user, its username constraint item and (optionally) the avatar in one transaction, so a
 * taken username writes nothing. With `firstUser`, the setup marker is part of the same transaction:
 * of two racing first-run calls exactly one succeeds.
 */
export async function createUser(input: NewUser, options: { firstUser?: boolean } = {}): Promise<UserRecord> {
  const now = new Date().toISOString();
  const user: UserRecord = {
    id: randomUUID(),
    username: input.username,
    passwordHash: input.passwordHash,
    role: input.role,
    view: input.view ?? (await defaultView()),
    quota: input.quota ?? null,
    totpSecret: null,
    oauthProviders: input.identity ? [newLink(input.identity, now)] : [],
    passkeys: [],
    sessions: {},
    tokenNonce: newTokenNonce(),
    createdAt: input.createdAt ?? now,
    updatedAt: now,
  };
  const claims = claimUsername(user.username, user.id);
  const items = [
    putIn(
      {
        ...userKey(user.id),
        ...userIndexKey(roleRank(user.role), user.id),
        ...user,
        ...linkedSetOf(user.oauthProviders),
      },
      { ConditionExpression: 'attribute_not_exists(pk)' },
    ),
    ...claims,
    ...(options.firstUser
      ? [
          putIn(
            { ...setupKey, userId: user.id, createdAt: now },
            { ConditionExpression: 'attribute_not_exists(pk)' },
          ),
        ]
      : []),
    ...(input.identity ? [claimIdentity(input.identity, user.id)] : []),
    ...(input.inviteCode === undefined ? [] : [inviteUse(input.inviteCode)]),
    ...(input.avatar ? avatarWrites(user.id, input.avatar) : []),
    ...(input.extra ? input.extra(user) : []),
  ];
  const identityIndex = input.identity ? 1 + claims.length + (options.firstUser ? 1 : 0) : -1;
  const inviteIndex =
    input.inviteCode === undefined
      ? -1
      : 1 + claims.length + (options.firstUser ? 1 : 0) + (input.identity ? 1 : 0);
  try {
    await transactWrite(items);
  } catch (error) {
    if (!(error instanceof TransactionConditionFailed)) throw error;
    const claimCount = claims.length;
    if (options.firstUser && error.failedIndexes.includes(1 + claimCount)) {
      throw forbidden('setup has already been done');
    }
    if (error.failedIndexes.includes(identityIndex)) throw conflict(ALREADY_LINKED_ELSEWHERE);
    if (error.failedIndexes.includes(inviteIndex)) throw forbidden(INVITE_REFUSED);
    if (error.failedIndexes.some((index) => index >= 1 && index <= claimCount)) throw invalid(USERNAME_TAKEN);
    throw error;
  }
  return user;
}

export async function isSetupDone(): Promise<boolean> {
  return (await getItem(setupKey, { attributes: ['pk'] })) !== undefined;
}
