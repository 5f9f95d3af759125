import { FILE_PREFIX } from '#shared/db/keys/files';
import type { OwnerDelta } from '#shared/views/totals';

/**
 * What the table's stream says of views (docs/stats.md, "Views"): each changed item as its keys and
 * its images before and after (plain values), folded into each owner's change. Views live in three
 * kinds of item: a file's own (`USER#<owner>`, `FILE#<id>`: its first 100), a popular file's
 * counters (`FILEVIEWS#…`) and a link's (`LINKVIEWS#…`), the counters naming their owner
 * (`ownerId`, written by the count itself). An item's change is its views after minus before: a
 * count adds one, a new file brings the views it was created with (an import), a deleted file or
 * counter takes its views away, any other write of a file (a rename, its views order) changes none.
 */
export interface ItemChange {
  keys: { pk?: unknown; sk?: unknown };
  before?: Record<string, unknown>;
  after?: Record<string, unknown>;
}

const views = (image: Record<string, unknown> | undefined) => Number(image?.views ?? 0);

/** The owner and kind an item's views count for; undefined for an item that counts none. */
function countedFor(change: ItemChange): { ownerId: string; kind: keyof OwnerDelta } | undefined {
  const pk = String(change.keys.pk ?? '');
  if (pk.startsWith('USER#') && String(change.keys.sk ?? '').startsWith(FILE_PREFIX))
    return { ownerId: pk.slice('USER#'.length), kind: 'files' };
  const kind = pk.startsWith('FILEVIEWS#') ? 'files' : pk.startsWith('LINKVIEWS#') ? 'links' : undefined;
  const ownerId = change.after?.ownerId ?? change.before?.ownerId;
  // A counter written before counters named their owner: its views were in the totals already.
  return kind && typeof ownerId === 'string' ? { ownerId, kind } : undefined;
}

/** The batch's changes summed per owner; owners whose views did not move are left out. */
export function foldViewChanges(changes: Iterable<ItemChange>): Map<string, OwnerDelta> {
  const deltas = new Map<string, OwnerDelta>();
  for (const change of changes) {
    const counted = countedFor(change);
    const delta = views(change.after) - views(change.before);
    if (!counted || delta === 0) continue;
    const owner = deltas.get(counted.ownerId) ?? { files: 0, links: 0 };
    owner[counted.kind] += delta;
    deltas.set(counted.ownerId, owner);
  }
  return deltas;
}
