import { getItem } from '#shared/db/client';
import { unlessConditionFails } from '#shared/db/expressions/conditions';
import { LINK_PREFIX, linkRouteKey } from '#shared/db/keys/links';
import { deleteIn, deleteItem, putIn } from '#shared/db/table-calls';
import type { TransactItem } from '#shared/db/transact';
import { type LinkRecord, linkNames } from '#shared/links/model';
import { deleteViewCounters } from '#shared/views/cleanup';

/**
 * A link's route items (`GO#<name>`, one per name it answers to): what `/go/{name}` needs, copied
 * from the link in every transaction that changes it, so a redirect reads one item. Each claims its
 * name for one link across all users (a vanity is unique as a username is).
 */
export interface LinkRoute {
  linkId: string;
  userId: string;
  code: string;
  destination: string;
  enabled: boolean;
  maxViews: number | null;
  passwordHash: string | null;
  viewsBeforeLimit: number;
}

const routeOf = (link: LinkRecord): LinkRoute => ({
  linkId: link.id,
  userId: link.userId,
  code: link.code,
  destination: link.destination,
  enabled: link.enabled,
  maxViews: link.maxViews,
  passwordHash: link.passwordHash,
  viewsBeforeLimit: link.viewsBeforeLimit,
});

const routeItem = (link: LinkRecord, name: string) => ({ ...linkRouteKey(name), ...routeOf(link) });

/** The condition that `linkId` holds a name (its route item is that link's). */
const heldBy = (linkId: string) => ({
  ConditionExpression: 'linkId = :linkId',
  ExpressionAttributeValues: { ':linkId': linkId },
});

/** Claims `name` for a new link: nobody may hold it. */
export const claimRoute = (link: LinkRecord, name: string): TransactItem =>
  putIn(routeItem(link, name), { ConditionExpression: 'attribute_not_exists(pk)' });

/** Writes `name`'s route item: a new claim, or the same link's again (`attribute_not_exists` or its id). */
export const putRoute = (link: LinkRecord, name: string): TransactItem =>
  putIn(routeItem(link, name), {
    ConditionExpression: 'attribute_not_exists(pk) OR linkId = :linkId',
    ExpressionAttributeValues: { ':linkId': link.id },
  });

/** Releases `name`, if this link still holds it. */
export const deleteRoute = (linkId: string, name: string): TransactItem =>
  deleteIn(linkRouteKey(name), heldBy(linkId));

/** The link `/go/{name}` answers to, in one GetItem (eventually consistent: the cheap read). */
export async function findRoute(name: string): Promise<LinkRoute | undefined> {
  const item = await getItem(linkRouteKey(name.toLowerCase()));
  if (!item) return undefined;
  return {
    linkId: String(item.linkId),
    userId: String(item.userId),
    code: String(item.code),
    destination: String(item.destination),
    enabled: item.enabled === true,
    maxViews: typeof item.maxViews === 'number' ? item.maxViews : null,
    passwordHash: typeof item.passwordHash === 'string' ? item.passwordHash : null,
    viewsBeforeLimit: Number(item.viewsBeforeLimit ?? 0),
  };
}

/** Deletes deleted links' view counters. */
export const deleteCounters = (linkIds: string[]) => deleteViewCounters('link', linkIds);

/** The attributes of a partition's items that `releaseLinks` needs besides the keys. */
export const LINK_RELEASE_ATTRIBUTES = ['code', 'vanity'];

/**
 * A user's deletion: releases the names and counters of the link items among `items` (a page of the
 * owner's partition, read with `LINK_RELEASE_ATTRIBUTES`) before those items are deleted, so a retry
 * still finds them through the link items. A name claimed since by another link is left alone.
 */
export async function releaseLinks(items: Record<string, unknown>[]): Promise<void> {
  const links = items.flatMap((item) => {
    const sk = String(item.sk);
    if (!sk.startsWith(LINK_PREFIX) || typeof item.code !== 'string') return [];
    const vanity = typeof item.vanity === 'string' ? item.vanity : null;
    return [{ id: sk.slice(LINK_PREFIX.length), code: item.code, vanity }];
  });
  await Promise.all(
    links.flatMap((link) =>
      linkNames(link).map((name) => unlessConditionFails(deleteItem(linkRouteKey(name), heldBy(link.id)))),
    ),
  );
  await deleteCounters(links.map((link) => link.id));
}
