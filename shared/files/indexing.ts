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
}

export const SORT_INDEXES: Record<SortField, SortIndex> = {
  id: { index: undefined, skipIndex: 'gsi2' },
  createdAt: { index: undefined, skipIndex: 'gsi2' },
  updatedAt: { index: 'gsi3', skipIndex: 'gsi3' },
  deletesAt: { index: 'gsi4', skipIndex: 'gsi4' },
  name: { index: 'gsi5', skipIndex: 'gsi5' },
  originalName: { index: 'gsi6', skipIndex: 'gsi6' },
  size: { index: 'gsi7', skipIndex: 'gsi7' },
  type: { index: 'gsi8', skipIndex: 'gsi8' },
  views: { index: 'gsi9', skipIndex: 'gsi9' },
  favorite: { index: 'gsi10', skipIndex: 'gsi10' },
};

/** The index a search reads: ordered by id, projecting the lowercased search fields. */
export const SEARCH_INDEX = 'gsi2';

const pad = (value: number, width: number) => String(value).padStart(width, '0');
const withId = (value: string, id: string) => `${value}${SEPARATOR}${id}`;

export const viewsSortKey = (views: number, id: string) => withId(pad(views, 15), id);

/**
 * Every index attribute of a file item; rewritten whenever a field it encodes changes. The expiry
 * index's keys exist only while the file has a `deletesAt` (the index is sparse).
 */
export function indexAttributes(userId: string, file: FileRecord): Record<string, string | boolean> {
  const partition = filesPartition(userId);
  const sortKeys: Record<string, string> = {
    gsi2sk: file.id,
    gsi3sk: withId(file.updatedAt, file.id),
    gsi4sk: withId(file.deletesAt ?? '~', file.id),
    gsi5sk: withId(file.name.toLowerCase(), file.id),
    gsi6sk: withId(file.originalName.toLowerCase(), file.id),
    gsi7sk: withId(pad(file.size, 16), file.id),
    gsi8sk: withId(file.type.toLowerCase(), file.id),
    gsi9sk: viewsSortKey(file.views, file.id),
    gsi10sk: withId(file.favorite ? '1' : '0', file.id),
  };
  const attributes: Record<string, string | boolean> = { media: isMedia(file.type) };
  for (const [name, value] of Object.entries(sortKeys)) {
    attributes[name] = value;
    attributes[name.replace(/sk$/, 'pk')] = partition;
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
