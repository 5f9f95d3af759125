import { goneOrHeldBy } from '#shared/db/expressions/conditions';
import { legacyUsernameKey, usernameKey, usernameSkeletonKey } from '#shared/db/keys/users';
import { checkIn, deleteIn, putIn } from '#shared/db/table-calls';
import type { TransactItem } from '#shared/db/transact';
import { usernameSkeletonHash } from '#shared/users/names/username-skeleton';

/** What a failed claim means (a look-alike counts): creation and renames answer with it. */
export const USERNAME_TAKEN = 'username is already taken';

interface Key {
  pk: string;
  sk: string;
}
interface KeyedItem {
  key: Key;
  item: TransactItem;
}

/**
 * The constraint items behind a username, as transaction items (ElectroDB style: one item per
 * unique value, written in the user's transaction). A name is claimed by its folded form and by its
 * skeleton, and must not be held under the lowercase key older versions wrote; any failed claim
 * condition means the name (or a look-alike) is taken.
 */
function claims(username: string, userId: string): KeyedItem[] {
  const put = (key: Key): KeyedItem => ({
    key,
    item: putIn({ ...key, userId }, { ConditionExpression: 'attribute_not_exists(pk)' }),
  });
  const items = [put(usernameKey(username)), put(usernameSkeletonKey(usernameSkeletonHash(username)))];
  const legacy = legacyUsernameKey(username);
  if (legacy.pk !== usernameKey(username).pk) {
    items.push({
      key: legacy,
      item: checkIn(legacy, goneOrHeldBy(userId)),
    });
  }
  return items;
}

/** Deletes whatever of a name's constraint items exist and are the user's (older users lack some). */
function releases(username: string, userId: string): KeyedItem[] {
  const keys = [usernameKey(username), usernameSkeletonKey(usernameSkeletonHash(username))];
  const legacy = legacyUsernameKey(username);
  if (legacy.pk !== usernameKey(username).pk) keys.push(legacy);
  return keys.map((key) => ({
    key,
    item: deleteIn(key, goneOrHeldBy(userId)),
  }));
}

export function claimUsername(username: string, userId: string): TransactItem[] {
  return claims(username, userId).map(({ key: _, item }) => item);
}

export function releaseUsername(username: string, userId: string): TransactItem[] {
  return releases(username, userId).map(({ item }) => item);
}

/**
 * A rename's constraint changes. A key both released and claimed (the same skeleton, say) already
 * belongs to the user and stays as it is; a transaction may not touch one item twice anyway.
 * `claimCount`: the first items are the claims, whose failure means taken.
 */
export function renameUsername(from: string, to: string, userId: string) {
  const released = releases(from, userId);
  const claimed = claims(to, userId);
  const inBoth = (key: Key, others: KeyedItem[]) => others.some((other) => other.key.pk === key.pk);
  const claimItems = claimed.filter(({ key }) => !inBoth(key, released)).map(({ item }) => item);
  const releaseItems = released.filter(({ key }) => !inBoth(key, claimed)).map(({ item }) => item);
  return { items: [...claimItems, ...releaseItems], claimCount: claimItems.length };
}
