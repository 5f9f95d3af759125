import { createHash } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { documents, tableName } from '#shared/db/client';
import { isConditionFailure, LIVE_USER } from '#shared/db/conditions';
import { oauthFlowKey, oauthIdentityKey, userKey } from '#shared/db/keys';
import { type TransactItem, TransactionConditionFailed, transactWrite } from '#shared/db/transact';
import { conflict, invalid } from '#shared/errors';
import { NO_PASSWORD, type OAuthLink, type UserRecord } from '#shared/users/model';
import { getUser } from '#shared/users/store';

/**
 * Provider accounts linked to users (issue 15). The user item keeps the public list
 * (`oauthProviders`) and, for the write conditions, the set of linked provider ids
 * (`oauthLinkedProviders`: one account per provider and user). Each linked provider account also has
 * a constraint item (`OAUTHID#<provider>#<providerId>` → userId), written or deleted in the same
 * transaction as the user item (ElectroDB style), so a provider account belongs to at most one user;
 * nothing is read first to decide that.
 */

/** The provider's own account: its stable id there and the name it goes by. */
export interface ProviderIdentity {
  provider: string;
  providerId: string;
  username: string;
}

const LINKED_SET = 'oauthLinkedProviders';

export const ALREADY_LINKED_ELSEWHERE = 'this provider account is already linked to another account';

/** The constraint item's Put: fails when any user holds the identity. */
export function claimIdentity(identity: ProviderIdentity, userId: string): TransactItem {
  return {
    Put: {
      TableName: tableName,
      Item: { ...oauthIdentityKey(identity.provider, identity.providerId), userId },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/** Deletes the user's constraint items (a user deletion; what an older user lacks is skipped). */
export function releaseIdentities(user: UserRecord): TransactItem[] {
  return user.oauthProviders.map((link) => releaseIdentity(link, user.id));
}

function releaseIdentity(link: OAuthLink, userId: string): TransactItem {
  return {
    Delete: {
      TableName: tableName,
      Key: oauthIdentityKey(link.provider, link.providerId),
      ConditionExpression: 'attribute_not_exists(pk) OR userId = :userId',
      ExpressionAttributeValues: { ':userId': userId },
    },
  };
}

/** The link a new identity becomes, and the attributes a user created with it starts with. */
export function newLink(identity: ProviderIdentity, now = new Date().toISOString()): OAuthLink {
  return { ...identity, createdAt: now };
}
export const linkedSetOf = (links: OAuthLink[]) =>
  links.length ? { [LINKED_SET]: new Set(links.map((link) => link.provider)) } : {};

/** The user who linked this provider account, if any (consistent reads: a link made a moment ago counts). */
export async function findUserByIdentity(identity: ProviderIdentity): Promise<UserRecord | undefined> {
  const claim = await documents.send(
    new GetCommand({
      TableName: tableName,
      Key: oauthIdentityKey(identity.provider, identity.providerId),
      ConsistentRead: true,
    }),
  );
  const userId = claim.Item?.userId;
  return typeof userId === 'string' ? getUser(userId, { consistent: true }) : undefined;
}

/**
 * Links a provider account to the user: the constraint item and the user's list in one transaction.
 * Refused (409) when the provider account is anyone's already, or the user has an account of that
 * provider linked (unlink it first); a user being deleted is not found (404).
 */
export async function linkIdentity(user: UserRecord, identity: ProviderIdentity): Promise<UserRecord> {
  const link = newLink(identity);
  try {
    await transactWrite([
      claimIdentity(identity, user.id),
      {
        Update: {
          TableName: tableName,
          Key: userKey(user.id),
          UpdateExpression:
            'SET #links = list_append(if_not_exists(#links, :none), :link), #updatedAt = :now ADD #linked :provider',
          ConditionExpression: `${LIVE_USER} AND NOT contains(#linked, :providerId)`,
          ExpressionAttributeNames: {
            '#links': 'oauthProviders',
            '#linked': LINKED_SET,
            '#updatedAt': 'updatedAt',
          },
          ExpressionAttributeValues: {
            ':none': [],
            ':link': [link],
            ':now': link.createdAt,
            ':provider': new Set([identity.provider]),
            ':providerId': identity.provider,
          },
        },
      },
    ]);
  } catch (error) {
    if (!(error instanceof TransactionConditionFailed)) throw error;
    if (error.failedIndexes.includes(0)) {
      const holder = await findUserByIdentity(identity);
      throw conflict(
        holder?.id === user.id
          ? 'this provider account is already linked to your account'
          : ALREADY_LINKED_ELSEWHERE,
      );
    }
    throw conflict(`an account of ${identity.provider} is already linked: unlink it first`);
  }
  return (await getUser(user.id, { consistent: true })) ?? user;
}

/** What a change takes away from the account's ways to sign in: a provider, or one passkey. */
export type SignInMethod = { provider: string } | { passkeyId: string };

/**
 * The ways besides `leaving` the user could still sign in with: the password, the other providers,
 * the other passkeys. Unlinking a provider and deleting a passkey are refused when this is empty, and
 * both writes are conditional on all three being as read (`signInMethodsUnchanged`).
 */
export function otherSignInMethods(user: UserRecord, leaving: SignInMethod): string[] {
  const provider = 'provider' in leaving ? leaving.provider : undefined;
  const passkeyId = 'passkeyId' in leaving ? leaving.passkeyId : undefined;
  return [
    ...(user.passwordHash !== NO_PASSWORD ? ['password'] : []),
    ...user.oauthProviders.filter((link) => link.provider !== provider).map((link) => link.provider),
    ...user.passkeys.filter((passkey) => passkey.id !== passkeyId).map(() => 'passkey'),
  ];
}

/**
 * The condition that the user's ways to sign in are still those read (the password hash, the number
 * of links and of passkeys), so that two concurrent removals (an unlink, a passkey deletion) can
 * never both pass `otherSignInMethods` and leave the account with none. Its names and values go into
 * the write's expression maps.
 */
export function signInMethodsUnchanged(user: UserRecord) {
  return {
    condition: [
      'passwordHash = :signInHash',
      '(attribute_not_exists(#signInLinks) OR size(#signInLinks) = :signInLinkCount)',
      '(attribute_not_exists(#signInPasskeys) OR size(#signInPasskeys) = :signInPasskeyCount)',
    ].join(' AND '),
    names: { '#signInLinks': 'oauthProviders', '#signInPasskeys': 'passkeys' },
    values: {
      ':signInHash': user.passwordHash,
      ':signInLinkCount': user.oauthProviders.length,
      ':signInPasskeyCount': user.passkeys.length,
    },
  };
}

export const LAST_SIGN_IN_METHOD =
  'this is the only way to sign in to the account: set a password, link another provider or add a passkey first';

/**
 * Unlinks the user's account of `provider` and frees it for others, in one transaction conditional
 * on the list being as read (the element at its index, the count of links, the password state), so
 * two concurrent unlinks can never leave the account with no way to sign in.
 */
export async function unlinkIdentity(user: UserRecord, provider: string): Promise<UserRecord> {
  const index = user.oauthProviders.findIndex((link) => link.provider === provider);
  const link = user.oauthProviders[index];
  if (!link) throw invalid(`${provider} is not linked to this account`);
  if (otherSignInMethods(user, { provider }).length === 0) throw invalid(LAST_SIGN_IN_METHOD);
  const unchanged = signInMethodsUnchanged(user);
  try {
    await transactWrite([
      {
        Update: {
          TableName: tableName,
          Key: userKey(user.id),
          UpdateExpression: `REMOVE #links[${index}] SET #updatedAt = :now DELETE #linked :provider`,
          ConditionExpression: [
            LIVE_USER,
            `#links[${index}].provider = :providerId AND #links[${index}].#id = :id`,
            unchanged.condition,
          ].join(' AND '),
          ExpressionAttributeNames: {
            '#links': 'oauthProviders',
            '#linked': LINKED_SET,
            '#updatedAt': 'updatedAt',
            '#id': 'providerId',
            ...unchanged.names,
          },
          ExpressionAttributeValues: {
            ':now': new Date().toISOString(),
            ':provider': new Set([provider]),
            ':providerId': provider,
            ':id': link.providerId,
            ...unchanged.values,
          },
        },
      },
      releaseIdentity(link, user.id),
    ]);
  } catch (error) {
    if (error instanceof TransactionConditionFailed)
      throw conflict('the account changed meanwhile: reload and try again');
    throw error;
  }
  return (await getUser(user.id, { consistent: true })) ?? user;
}

/** How long a sign-in's state is kept as used: longer than its flow cookie lives. */
const FLOW_RECORD_SECONDS = 3600;

/**
 * Records a sign-in's state as answered, once: a second callback with the same state (a replayed
 * callback URL with its cookie) is refused even by a provider that would accept its code twice.
 * Only the state's hash is stored; DynamoDB's TTL removes the record after an hour.
 */
export async function consumeFlowState(state: string): Promise<boolean> {
  const hash = createHash('sha256').update(state).digest('base64url');
  try {
    await documents.send(
      new PutCommand({
        TableName: tableName,
        Item: {
          ...oauthFlowKey(hash),
          expiresAt: Math.floor(Date.now() / 1000) + FLOW_RECORD_SECONDS,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}
