import { expiryIndexKey, filesPartition } from '#shared/db/keys';
import { type FileRecord, isMedia, type SearchField, type SortField } from '#shared/files/model';

/**
 * How a file appears in the file indexes (table.ts): for each sort order an index whose sort key is
 * the value encoded so that string order is the field's order, then the id as tiebreak, so every
 * order is total and paging never skips or repeats a file.
 *
 * - numbers are zero-padded; booleans are 0/1;
 * - names and types are lowercased (case-insensitive order and search);
 * - a missing deletesAt sorts after every date, as NULLS LAST does for ascending order;
 * - SEPARATOR sorts below every character a value may contain (control characters are refused).
 */
export const SEPARATOR = '\u0001';

export interface SortIndex {
  /** Undefined: the base table's sort key (`FILE#<id>`) is this order. */
  index: string | undefined;
  /** The index that a deep page skips over (compact projection). */
  skipIndex: string;
  /**
   * A sparse order's index holds only the files whose field differs from its default (most files
   * keep it: no expiry, no views yet, not a favourite), so an upload writes no entry there. The files
   * without an entry sort as `absent` (the default, encoded) would, ties broken by id: all of them
   * before (`first`) or after the entries in ascending order (docs/scale.md).
   */
  sparse?: { absent: string; first: boolean };
}

export const SORT_INDEXES: Record<SortField, SortIndex> = {
  id: { index: undefined, skipIndex: 'gsi2' },
  createdAt: { index: undefined, skipIndex: 'gsi2' },
  updatedAt: { index: 'gsi3', skipIndex: 'gsi3' },
  // A missing deletesAt sorts after every date (NULLS LAST in ascending order).
  deletesAt: { index: 'gsi4', skipIndex: 'gsi4', sparse: { absent: '~', first: false } },
  name: { index: 'gsi5', skipIndex: 'gsi5' },
  originalName: { index: 'gsi6', skipIndex: 'gsi6' },
  size: { index: 'gsi7', skipIndex: 'gsi7' },
  type: { index: 'gsi8', skipIndex: 'gsi8' },
  views: { index: 'gsi9', skipIndex: 'gsi9', sparse: { absent: encodeViews(0), first: true } },
  favorite: { index: 'gsi10', skipIndex: 'gsi10', sparse: { absent: '0', first: true } },
};

/** The index a search reads: ordered by id, projecting the lowercased search fields. */
export const SEARCH_INDEX = 'gsi2';

function pad(value: number, width: number) {
  return String(value).padStart(width, '0');
}
function encodeViews(views: number) {
  return pad(views, 15);
}
const withId = (value: string, id: string) => `${value}${SEPARATOR}${id}`;

/** A file's sort key in an order's index; for a sparse order, also what a file without an entry has. */
export const sortKeyOf = (value: string, id: string) => withId(value, id);

/** The views index's keys of a file viewed `views` times (at least once: none before). */
export const viewsIndexKey = (userId: string, views: number, id: string) => ({
  gsi9pk: filesPartition(userId),
  gsi9sk: withId(encodeViews(views), id),
});

/**
 * Every index attribute of a file item; rewritten whenever a field it encodes changes. A sparse
 * order's keys, and the expiry index's, exist only while the field differs from its default.
 */
export function indexAttributes(userId: string, file: FileRecord): Record<string, string | boolean> {
  const partition = filesPartition(userId);
  const values: Record<SortField, string | undefined> = {
    id: undefined,
    createdAt: undefined,
    updatedAt: file.updatedAt,
    deletesAt: file.deletesAt ?? '~',
    name: file.name.toLowerCase(),
    originalName: file.originalName.toLowerCase(),
    size: pad(file.size, 16),
    type: file.type.toLowerCase(),
    views: encodeViews(file.views),
    favorite: file.favorite ? '1' : '0',
  };
  const attributes: Record<string, string | boolean> = {
    media: isMedia(file.type),
    gsi2pk: partition,
    gsi2sk: file.id,
  };
  for (const [field, value] of Object.entries(values) as [SortField, string | undefined][]) {
    const { index, sparse } = SORT_INDEXES[field];
    if (index === undefined || value === undefined || value === sparse?.absent) continue;
    attributes[`${index}pk`] = partition;
    attributes[`${index}sk`] = withId(value, file.id);
  }
  return file.deletesAt === null ? attributes : { ...attributes, ...expiryIndexKey(file.id, file.deletesAt) };
}

/** The lowercased value of a search field, read from a search-index entry. */
export function searchableValue(entry: Record<string, unknown>, field: SearchField): string {
  if (field === 'id') return String(entry.gsi2sk ?? '').toLowerCase();
  const attribute = { name: 'gsi5sk', originalName: 'gsi6sk', type: 'gsi8sk' }[field];
  const encoded = String(entry[attribute] ?? '');
  return encoded.slice(0, encoded.lastIndexOf(SEPARATOR));
}
