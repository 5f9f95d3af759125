import { createHash } from 'node:crypto';
import { getItem } from '#shared/db/client';
import { goneOrHeldBy, isConditionFailure, LIVE_USER } from '#shared/db/expressions/conditions';
import { UpdateBuilder } from '#shared/db/expressions/update';
import { oauthFlowKey, oauthIdentityKey } from '#shared/db/keys/users';
import { deleteIn, putIn, putItem } from '#shared/db/table-calls';
import { type TransactItem, TransactionConditionFailed, transactWrite } from '#shared/db/transact';
import { conflict, invalid } from '#shared/errors';
import type { OAuthLink, UserRecord } from '#shared/users/model';
import { removeSignInMethod } from '#shared/users/sign-in/sign-in-methods';
import { getUser, userItemUpdate } from '#shared/users/store';

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
const LINKS = 'oauthProviders';

export const ALREADY_LINKED_ELSEWHERE = 'this provider account is already linked to another account';

/** The constraint item's Put: fails when any user holds the identity. */
export function claimIdentity(identity: ProviderIdentity, userId: string): TransactItem {
  return putIn(
    { ...oauthIdentityKey(identity.provider, identity.providerId), userId },
    { ConditionExpression: 'attribute_not_exists(pk)' },
  );
}

/** Deletes the user's constraint items (a user deletion; what an older user lacks is skipped). */
export function releaseIdentities(user: UserRecord): TransactItem[] {
  return user.oauthProviders.map((link) => releaseIdentity(link, user.id));
}

function releaseIdentity(link: OAuthLink, userId: string): TransactItem {
  return deleteIn(oauthIdentityKey(link.provider, link.providerId), goneOrHeldBy(userId));
}

/** The link a new identity becomes, and the attributes a user created with it starts with. */
export function newLink(identity: ProviderIdentity, now = new Date().toISOString()): OAuthLink {
  return { ...identity, createdAt: now };
}
export const linkedSetOf = (links: OAuthLink[]) =>
  links.length ? { [LINKED_SET]: new Set(links.map((link) => link.provider)) } : {};

/** The user who linked this provider account, if any (consistent reads: a link made a moment ago counts). */
export async function findUserByIdentity(identity: ProviderIdentity): Promise<UserRecord | undefined> {
  const claim = await getItem(oauthIdentityKey(identity.provider, identity.providerId), { consistent: true });
  const userId = claim?.userId;
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
    await transactWrite([claimIdentity(identity, user.id), userItemUpdate(user.id, linkUpdate(link))]);
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

/**
 * The user item's part of a link: the list gains it and the set of linked providers its provider,
 * while the user is live and has no account of that provider linked.
 */
function linkUpdate(link: OAuthLink): UpdateBuilder {
  const update = new UpdateBuilder()
    .append(LINKS, [link])
    .set('updatedAt', link.createdAt)
    .add(LINKED_SET, new Set([link.provider]));
  return update.when(
    `${LIVE_USER} AND NOT contains(${update.name(LINKED_SET)}, ${update.value(link.provider)})`,
  );
}

/**
 * Unlinks the user's account of `provider` and frees it for others (`removeSignInMethod`: never the
 * account's last way to sign in), conditional on the link being the one read at its index.
 */
export async function unlinkIdentity(user: UserRecord, provider: string): Promise<UserRecord> {
  const index = user.oauthProviders.findIndex((link) => link.provider === provider);
  const link = user.oauthProviders[index];
  if (!link) throw invalid(`${provider} is not linked to this account`);
  const update = new UpdateBuilder().remove([LINKS, index]).deleteFromSet(LINKED_SET, new Set([provider]));
  update.when(`${update.ref([LINKS, index, 'provider'])} = ${update.value(provider)}`);
  update.when(`${update.ref([LINKS, index, 'providerId'])} = ${update.value(link.providerId)}`);
  return removeSignInMethod(user, { method: { provider }, update, release: releaseIdentity(link, user.id) });
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
    await putItem(
      { ...oauthFlowKey(hash), expiresAt: Math.floor(Date.now() / 1000) + FLOW_RECORD_SECONDS },
      { ConditionExpression: 'attribute_not_exists(pk)' },
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}
