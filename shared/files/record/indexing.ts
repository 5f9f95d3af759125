import { expiryIndexKey, FILE_ORDER_INDEXES, filesPartition } from '#shared/db/keys/files';
import { indexKeyAttributes } from '#shared/db/keys/partitions';
import { type FileRecord, isMedia, type SortField, type TextSearchField } from '#shared/files/model';

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
  id: { index: undefined, skipIndex: FILE_ORDER_INDEXES.byId },
  createdAt: { index: undefined, skipIndex: FILE_ORDER_INDEXES.byId },
  updatedAt: { index: FILE_ORDER_INDEXES.byUpdatedAt, skipIndex: FILE_ORDER_INDEXES.byUpdatedAt },
  // A missing deletesAt sorts after every date (NULLS LAST in ascending order).
  deletesAt: { index: FILE_ORDER_INDEXES.byDeletesAt, skipIndex: FILE_ORDER_INDEXES.byDeletesAt },
  name: { index: FILE_ORDER_INDEXES.byName, skipIndex: FILE_ORDER_INDEXES.byName },
  originalName: { index: FILE_ORDER_INDEXES.byOriginalName, skipIndex: FILE_ORDER_INDEXES.byOriginalName },
  size: { index: FILE_ORDER_INDEXES.bySize, skipIndex: FILE_ORDER_INDEXES.bySize },
  type: { index: FILE_ORDER_INDEXES.byType, skipIndex: FILE_ORDER_INDEXES.byType },
  views: { index: FILE_ORDER_INDEXES.byViews, skipIndex: FILE_ORDER_INDEXES.byViews },
  favorite: { index: FILE_ORDER_INDEXES.byFavorite, skipIndex: FILE_ORDER_INDEXES.byFavorite },
};

/**
 * The encoded value of the orders whose field most files keep at its default (no expiry: after
 * every date, NULLS LAST in ascending order; no views; not a favourite). Every file has an entry
 * in these orders' indexes too, the default encoded, so each order is one index walked page by page
 * (docs/scale.md, "Orders at their default"); `npm run upgrade:data` gives these entries to files
 * an earlier version left out (infra/table-upgrade.ts).
 */
export const DEFAULT_SORT_VALUES = {
  deletesAt: '~',
  views: encodeViews(0),
  favorite: '0',
} as const satisfies Partial<Record<SortField, string>>;

/** The index a search reads: ordered by id, projecting the lowercased search fields. */
export const SEARCH_INDEX = FILE_ORDER_INDEXES.byId;

function pad(value: number, width: number) {
  return String(value).padStart(width, '0');
}
function encodeViews(views: number) {
  return pad(views, 15);
}
const withId = (value: string, id: string) => `${value}${SEPARATOR}${id}`;

/** A file's sort key in an order's index: the encoded value, then the id. */
export const sortKeyOf = (value: string, id: string) => withId(value, id);

/** The views index's keys of a file viewed `views` times. */
export function viewsIndexKey(
  userId: string,
  views: number,
  id: string,
  partition = filesPartition(userId),
): Record<string, string> {
  const { pk, sk } = indexKeyAttributes(FILE_ORDER_INDEXES.byViews);
  return { [pk]: partition, [sk]: withId(encodeViews(views), id) };
}

/**
 * Every index attribute of a file item; rewritten whenever a field it encodes changes. Every order
 * has its entry, whatever the value; the expiry index's keys exist only while the file has a
 * `deletesAt` (the sweep's index is sparse). A tag membership (record/memberships.ts) and a folder
 * member (record/folder-membership.ts) have the same under their partition, and no expiry entry.
 */
export function indexAttributes(
  userId: string,
  file: FileRecord,
  partition = filesPartition(userId),
): Record<string, string | boolean> {
  const library = partition === filesPartition(userId);
  const values: Record<SortField, string | undefined> = {
    id: undefined,
    createdAt: undefined,
    updatedAt: file.updatedAt,
    deletesAt: file.deletesAt ?? DEFAULT_SORT_VALUES.deletesAt,
    name: file.name.toLowerCase(),
    originalName: file.originalName.toLowerCase(),
    size: pad(file.size, 16),
    type: file.type.toLowerCase(),
    views: encodeViews(file.views),
    favorite: file.favorite ? '1' : DEFAULT_SORT_VALUES.favorite,
  };
  const attributes: Record<string, string | boolean> = {
    media: isMedia(file.type),
    [indexKeyAttributes(SEARCH_INDEX).pk]: partition,
    [indexKeyAttributes(SEARCH_INDEX).sk]: file.id,
  };
  for (const [field, value] of Object.entries(values) as [SortField, string | undefined][]) {
    const { index } = SORT_INDEXES[field];
    if (index === undefined || value === undefined) continue;
    const keys = indexKeyAttributes(index);
    attributes[keys.pk] = partition;
    attributes[keys.sk] = withId(value, file.id);
  }
  return file.deletesAt === null || !library
    ? attributes
    : { ...attributes, ...expiryIndexKey(file.id, file.deletesAt) };
}

/** The lowercased value of a search field, read from a search-index entry. */
export function searchableValue(entry: Record<string, unknown>, field: TextSearchField): string {
  if (field === 'id') return String(entry[indexKeyAttributes(SEARCH_INDEX).sk] ?? '').toLowerCase();
  const attribute = indexKeyAttributes(SORT_INDEXES[field].index as string).sk;
  const encoded = String(entry[attribute] ?? '');
  return encoded.slice(0, encoded.lastIndexOf(SEPARATOR));
}
