import { getItem } from '#shared/db/client';
import { UpdateBuilder } from '#shared/db/expressions/update';
import { LINK_PREFIX, linkKey, linkStatsKey } from '#shared/db/keys/links';
import { userKey } from '#shared/db/keys/users';
import { putIn, queryPages, updateIn } from '#shared/db/table-calls';
import { type TransactItem, TransactionConditionFailed, transactAsActiveOwner } from '#shared/db/transact';
import { conflict, forbidden, notFound } from '#shared/errors';
import { type LinkRecord, linkNames, newLinkCode, vanityKey } from '#shared/links/model';
import { claimRoute } from '#shared/links/route-items';

export const LINK_NOT_FOUND = 'url not found';
export const VANITY_TAKEN = 'vanity is already taken';
export const CODE_TAKEN = 'code is already taken';

/**
 * What an imported link (issue 40) keeps of its past: its code (instead of a drawn one), its views
 * so far and creation time; `extra` joins the creating transaction, after its items.
 */
export interface CarriedLink {
  code: string;
  viewsBeforeLimit: number;
  createdAt: string;
  extra: (link: LinkRecord) => TransactItem[];
}

export interface NewLink {
  destination: string;
  vanity: string | null;
  enabled: boolean;
  maxViews: number | null;
  passwordHash: string | null;
}

export const fromLinkItem = (item: Record<string, unknown>): LinkRecord => ({
  id: String(item.id),
  userId: String(item.userId),
  code: String(item.code),
  vanity: typeof item.vanity === 'string' ? item.vanity : null,
  destination: String(item.destination),
  enabled: item.enabled === true,
  maxViews: typeof item.maxViews === 'number' ? item.maxViews : null,
  passwordHash: typeof item.passwordHash === 'string' ? item.passwordHash : null,
  viewsBeforeLimit: Number(item.viewsBeforeLimit ?? 0),
  createdAt: String(item.createdAt),
  updatedAt: String(item.updatedAt),
});

/** The stored link item (null attributes left out). */
export const toLinkItem = (link: LinkRecord) => ({
  ...linkKey(link.userId, link.id),
  ...Object.fromEntries(Object.entries(link).filter(([, value]) => value !== null)),
});

/**
 * The owner's link count moved by `delta` (ADD: concurrent changes never lose one), on condition
 * that it stays at most `maxUrls` when there is one.
 */
export function linkCountUpdate(userId: string, delta: 1 | -1, maxUrls: number | null = null): TransactItem {
  const update = new UpdateBuilder();
  if (maxUrls === null) update.add('count', delta);
  else update.addUpTo('count', delta, maxUrls);
  return updateIn(linkStatsKey(userId), update.build());
}

/** How many times a new code is drawn when one is taken (at 62 bits, never twice in practice). */
const CODE_ATTEMPTS = 3;

/**
 * Creates a link in one transaction: the owner is live (`transactAsActiveOwner`), the owner's link
 * count is raised up to `maxUrls` (a conditional ADD on LINKSTATS: concurrent creations never pass
 * the quota), the link item, and a route item per name, each claiming its name (a taken vanity: 409,
 * nothing written).
 */
export async function createLink(
  userId: string,
  input: NewLink,
  maxUrls: number | null,
  carried?: CarriedLink,
): Promise<LinkRecord> {
  for (let attempt = 1; ; attempt++) {
    const code = carried?.code ?? newLinkCode();
    const now = new Date().toISOString();
    const link: LinkRecord = {
      // An imported code need not be an id's 12 characters: the link gets an id of its own.
      id: carried ? newLinkCode() : code,
      userId,
      code,
      ...input,
      viewsBeforeLimit: carried?.viewsBeforeLimit ?? 0,
      createdAt: carried?.createdAt ?? now,
      updatedAt: now,
    };
    const [codeName, vanityName] = linkNames(link) as [string, string | undefined];
    try {
      await transactAsActiveOwner(userId, [
        linkCountUpdate(userId, 1, maxUrls),
        putIn(toLinkItem(link), { ConditionExpression: 'attribute_not_exists(pk)' }),
        claimRoute(link, codeName),
        ...(vanityName === undefined ? [] : [claimRoute(link, vanityName)]),
        ...(carried ? carried.extra(link) : []),
      ]);
      return link;
    } catch (error) {
      if (!(error instanceof TransactionConditionFailed)) throw error;
      const failed = new Set(error.failedIndexes);
      if (failed.has(0)) throw forbidden(`shortening this URL would exceed your quota of ${maxUrls} URLs`);
      if (vanityName !== undefined && failed.has(3)) throw conflict(VANITY_TAKEN);
      if (carried && failed.has(2)) throw conflict(CODE_TAKEN);
      if (carried || attempt >= CODE_ATTEMPTS) throw error;
    }
  }
}

/** The caller's link by id (its code); another user's, or none: undefined. */
export async function getLink(
  userId: string,
  linkId: string,
  consistent = false,
): Promise<LinkRecord | undefined> {
  const item = await getItem(linkKey(userId, linkId), { consistent });
  return item ? fromLinkItem(item) : undefined;
}

export const requireLink = (link: LinkRecord | undefined): LinkRecord => {
  if (!link) throw notFound(LINK_NOT_FOUND);
  return link;
};

/** Every link of the user, newest first (Zipline answers them all, without pages). */
export async function listLinks(userId: string): Promise<LinkRecord[]> {
  const links: LinkRecord[] = [];
  const pages = queryPages({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': userKey(userId).pk, ':prefix': LINK_PREFIX },
  });
  for await (const page of pages) links.push(...(page.Items ?? []).map(fromLinkItem));
  return links.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

/** Whether `name` is one of the link's (`/api/user/urls/{id}/password` takes the id, code or vanity). */
export const answersTo = (link: LinkRecord, name: string) =>
  link.id === name || (link.vanity !== null && vanityKey(link.vanity) === name.toLowerCase());

/** A user's short-link counter: how many links they have (`count`, the one `maxUrls` limits). */
export async function getLinkCounters(userId: string): Promise<{ count: number }> {
  const item = await getItem(linkStatsKey(userId));
  return { count: Number(item?.count ?? 0) };
}
