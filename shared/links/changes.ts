import { UpdateBuilder } from '#shared/db/expressions/update';
import { linkKey } from '#shared/db/keys/links';
import { deleteIn, updateIn } from '#shared/db/table-calls';
import {
  type TransactItem,
  TransactionConditionFailed,
  transactAsActiveOwner,
  transactWrite,
} from '#shared/db/transact';
import { conflict, notFound } from '#shared/errors';
import { type LinkRecord, linkNames } from '#shared/links/model';
import { deleteCounters, deleteRoute, putRoute } from '#shared/links/route-items';
import { getLink, LINK_NOT_FOUND, linkCountUpdate, requireLink, VANITY_TAKEN } from '#shared/links/store';
import { shardViews } from '#shared/links/views';

/** What a PATCH may change; absent: unchanged, null: removed. */
export interface LinkChanges {
  destination?: string;
  vanity?: string | null;
  maxViews?: number | null;
  passwordHash?: string | null;
  enabled?: boolean;
}

const CHANGED_FIELDS = [
  'destination',
  'vanity',
  'maxViews',
  'passwordHash',
  'enabled',
  'viewsBeforeLimit',
] as const;

/**
 * Changes the caller's link: the link item (conditional on the `updatedAt` it was read with, so two
 * edits never interleave), the route items rewritten with it, a new vanity claimed and the old one
 * released, in one transaction. A limit set where there was none starts from the views counted so
 * far (links/views.ts). Another user's link, or none: 404; a vanity taken: 409.
 */
export async function updateLink(userId: string, linkId: string, changes: LinkChanges): Promise<LinkRecord> {
  const link = requireLink(await getLink(userId, linkId, true));
  const limitStarts = changes.maxViews !== undefined && changes.maxViews !== null && link.maxViews === null;
  const next: LinkRecord = {
    ...link,
    ...changes,
    ...(limitStarts ? { viewsBeforeLimit: await shardViews(link.id) } : {}),
    updatedAt: new Date().toISOString(),
  };
  const builder = new UpdateBuilder();
  for (const field of CHANGED_FIELDS) builder.setOrRemove(field, next[field]);
  builder.set('updatedAt', next.updatedAt);
  builder.when(`attribute_exists(pk) AND ${builder.name('updatedAt')} = ${builder.value(link.updatedAt)}`);
  const oldNames = linkNames(link);
  const newNames = linkNames(next);
  const items: TransactItem[] = [
    updateIn(linkKey(userId, linkId), builder.build()),
    ...newNames.map((name) => putRoute(next, name)),
    ...oldNames.filter((name) => !newNames.includes(name)).map((name) => deleteRoute(linkId, name)),
  ];
  try {
    // The owner's check: a deletion under way has released the names, which must stay released.
    await transactAsActiveOwner(userId, items);
  } catch (error) {
    if (!(error instanceof TransactionConditionFailed)) throw error;
    if (error.failedIndexes.includes(0)) throw conflict('the link was changed meanwhile, try again');
    throw conflict(VANITY_TAKEN);
  }
  return next;
}

/**
 * Deletes the caller's link: the link item, its names and one off the owner's count, in one
 * transaction; then its view counters. Another user's link, or none: 404.
 */
export async function deleteLink(userId: string, linkId: string): Promise<LinkRecord> {
  const link = requireLink(await getLink(userId, linkId, true));
  try {
    await transactWrite([
      deleteIn(linkKey(userId, linkId), { ConditionExpression: 'attribute_exists(pk)' }),
      ...linkNames(link).map((name) => deleteRoute(linkId, name)),
      linkCountUpdate(userId, -1),
    ]);
  } catch (error) {
    if (error instanceof TransactionConditionFailed) throw notFound(LINK_NOT_FOUND);
    throw error;
  }
  await deleteCounters([linkId]);
  return link;
}
