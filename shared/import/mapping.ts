import { getItem } from '#shared/db/client';
import { putIn, queryPages } from '#shared/db/table-calls';
import type { TransactItem } from '#shared/db/transact';
import { invalid } from '#shared/errors';

/**
 * What a Zipline import has brought over (issue 40, docs/migrate-from-zipline.md): one mapping item
 * per imported entity, `ZIPLINE#<kind>` / `<zipline id>` → our id, written in the entity's own
 * transaction (a constraint item, as a username claim is): a second import of the same Zipline id
 * finds it and changes nothing, and two concurrent ones write one entity. One partition per kind:
 * the status counts each with one Query, and an import's write rate is far below a partition's
 * 1,000 writes a second.
 */
export const IMPORT_KINDS = ['users', 'folders', 'tags', 'urls', 'files'] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];

const mappingPartition = (kind: ImportKind) => `ZIPLINE#${kind}`;
export const mappingKey = (kind: ImportKind, ziplineId: string) => ({
  pk: mappingPartition(kind),
  sk: ziplineId,
});

/** An imported entity: our id, and what the answer repeats of it (a name, a code). */
export interface Mapping {
  id: string;
  /** The entity's owner here (folders, tags, urls, files): the user its items live under. */
  userId?: string;
  details: Record<string, string | null>;
}

/** The mapping of a Zipline id, read consistently (a retried request right after the first). */
export async function findMapping(kind: ImportKind, ziplineId: string): Promise<Mapping | undefined> {
  const item = await getItem(mappingKey(kind, ziplineId), { consistent: true });
  if (!item) return undefined;
  return {
    id: String(item.id),
    ...(typeof item.userId === 'string' ? { userId: item.userId } : {}),
    details: (item.details ?? {}) as Mapping['details'],
  };
}

/** A reference to an entity imported before (an owner, a folder, a tag): its mapping, or 400. */
export async function requireMapping(kind: ImportKind, ziplineId: string): Promise<Mapping> {
  const found = await findMapping(kind, ziplineId);
  if (!found) throw invalid(`${kind.slice(0, -1)} ${ziplineId} has not been imported: import it first`);
  return found;
}

/** The transaction item claiming a Zipline id for the entity written beside it. */
export const claimMapping = (kind: ImportKind, ziplineId: string, mapping: Mapping): TransactItem =>
  putIn(
    {
      ...mappingKey(kind, ziplineId),
      id: mapping.id,
      ...(mapping.userId === undefined ? {} : { userId: mapping.userId }),
      details: mapping.details,
      importedAt: new Date().toISOString(),
    },
    { ConditionExpression: 'attribute_not_exists(pk)' },
  );

/** What an import route answers: the entity here, and whether this request created it. */
export interface Imported extends Mapping {
  created: boolean;
}

/**
 * Imports one entity once: an existing mapping is the answer (nothing written); otherwise `write`
 * writes the entity with `claimMapping` last in its transaction (so the entity's own failure
 * indexes stay as they are). When the write fails and a concurrent import of the same id has won
 * meanwhile (its claim, and maybe the entity's unique names, are taken), that import is the answer.
 */
export async function importOnce(
  kind: ImportKind,
  ziplineId: string,
  write: () => Promise<Mapping>,
): Promise<Imported> {
  const existing = await findMapping(kind, ziplineId);
  if (existing) return { ...existing, created: false };
  try {
    return { ...(await write()), created: true };
  } catch (error) {
    const winner = await findMapping(kind, ziplineId);
    if (winner) return { ...winner, created: false };
    throw error;
  }
}

/** How many entities of each kind have been imported: a COUNT Query per kind (1 RCU per 4 KB read). */
export async function importCounts(): Promise<Record<ImportKind, number>> {
  const counts = {} as Record<ImportKind, number>;
  for (const kind of IMPORT_KINDS) {
    let count = 0;
    const pages = queryPages({
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': mappingPartition(kind) },
      Select: 'COUNT',
    });
    for await (const page of pages) count += page.Count ?? 0;
    counts[kind] = count;
  }
  return counts;
}

/** Our id of an imported Zipline user that owns what is being imported (400 before the user is). */
export async function importedOwner(ziplineUserId: string): Promise<string> {
  return (await requireMapping('users', ziplineUserId)).id;
}
