import { shardOf } from '#shared/db/keys/partitions';
import { foldUsername } from '#shared/db/username-forms';

/** The keys of users and of what claims a sign-in for one (names, identities, passkeys), and the user listing index. */

export const userKey = (userId: string) => ({ pk: `USER#${userId}`, sk: 'USER' });

/**
 * A user deletion under way: one partition of them, so the worker that continues deletions finds
 * each with one query. Written with the user's `deletingAt` mark, deleted with the user item.
 */
export const pendingDeletionKey = (userId: string) => ({ pk: 'DELETIONS', sk: `USER#${userId}` });

/** Claims a username in its folded form (`username-forms.ts`): one user per folded name. */
export const usernameKey = (username: string) => ({
  pk: `USERNAME#${foldUsername(username)}`,
  sk: 'USERNAME',
});

/** Where names were claimed before folding (lowercased only); differs only for some non-ASCII names. */
export const legacyUsernameKey = (username: string) => ({
  pk: `USERNAME#${username.toLowerCase()}`,
  sk: 'USERNAME',
});

/** Claims a username's look (the hash of its UTS #39 skeleton): one user per skeleton. */
export const usernameSkeletonKey = (skeletonHash: string) => ({
  pk: `USERLIKE#${skeletonHash}`,
  sk: 'USERLIKE',
});

export const avatarChunkKey = (userId: string, index: number) => ({
  pk: `USER#${userId}`,
  sk: `AVATAR#${index}`,
});

/**
 * Claims an external identity (a provider's account) for one user: written in the transaction that
 * links it, so a provider account signs in to at most one user.
 */
export const oauthIdentityKey = (provider: string, providerId: string) => ({
  pk: `OAUTHID#${provider}#${providerId}`,
  sk: 'OAUTHID',
});

/** A provider sign-in whose callback has been answered (by the hash of its state): never twice. */
export const oauthFlowKey = (stateHash: string) => ({ pk: `OAUTHFLOW#${stateHash}`, sk: 'OAUTHFLOW' });

/**
 * A passkey's credential (issue 15): its public key, signature counter and owner, keyed by the
 * credential id a sign-in presents, so finding its user is one GetItem. Written in the transaction
 * that adds the passkey to its user's list.
 */
export const passkeyKey = (credentialId: string) => ({ pk: `PASSKEY#${credentialId}`, sk: 'PASSKEY' });

/** A WebAuthn challenge handed out and not yet answered (by its hash): consumed by a conditional delete. */
export const webauthnChallengeKey = (challengeHash: string) => ({
  pk: `WEBAUTHN#${challengeHash}`,
  sk: 'WEBAUTHN',
});

/**
 * The user listing index: every user, in one of a fixed number of partitions by id. It
 * projects only what the listing returns (table.ts), so a login, which changes only `sessions`,
 * writes nothing to it (docs/scale.md).
 */
export const USERS_INDEX = 'gsi12';

/** The listing index's key attributes (`userIndexKey` writes them, the listing queries them). */
export const USERS_INDEX_PARTITION = 'gsi12pk';

export const USERS_INDEX_SORT = 'gsi12sk';

export const USER_SHARDS = 16;

export const userShardPartition = (shard: number) => `USERS#${shard}`;

/**
 * A user's listing-index keys. The sort key leads with the rank of the user's role (0 = highest), so
 * the users a caller may act on (a contiguous band of ranks) are one key range in every shard.
 */
export const userIndexKey = (roleRank: number, userId: string) => ({
  [USERS_INDEX_PARTITION]: userShardPartition(shardOf(userId, USER_SHARDS)),
  [USERS_INDEX_SORT]: `${roleRank}#${userId}`,
});

/**
 * The key attributes the index that listed users before the sharded one (`gsi1`, removed in this
 * version: docs/scale.md) left on user items the upgrade did not reach; the upgrade removes them.
 */
export const RETIRED_USER_INDEX_ATTRIBUTES = ['gsi1pk', 'gsi1sk'] as const;

/** The listing-index sort-key range holding every user whose role rank lies in [from, to]. */
export const userIndexRange = (fromRank: number, toRank: number) => ({
  from: `${fromRank}#`,
  // '$' follows '#': the bound lies after every `${toRank}#<id>`.
  to: `${toRank}$`,
});
