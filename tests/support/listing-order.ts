import { type FileRecord, SORT_FIELDS, type SortField } from '#shared/files/model';

/**
 * The listing's orders as the cost tests check them (tests/http/folders-cost.test.ts,
 * tags-cost.test.ts): the order a page must have, computed from the files written, and what a page
 * may cost whatever the library's size.
 */

/** What an order compares, as its index encodes it: no expiry after every date, false before true. */
function orderValue(file: FileRecord, sortBy: SortField): string | number {
  switch (sortBy) {
    case 'id':
    case 'createdAt':
      return file.id;
    case 'deletesAt':
      return file.deletesAt ?? '~';
    case 'favorite':
      return Number(file.favorite);
    case 'name':
    case 'originalName':
    case 'type':
      return file[sortBy].toLowerCase();
    default:
      return file[sortBy];
  }
}

/** The ids of `files` in the order asked: the field's value, then the id, both reversed for desc. */
export function expectedOrder(files: FileRecord[], sortBy: SortField, order: 'asc' | 'desc'): string[] {
  const direction = order === 'asc' ? 1 : -1;
  const compare = (x: string | number, y: string | number) => (x < y ? -1 : x > y ? 1 : 0);
  return [...files]
    .sort(
      (a, b) => direction * (compare(orderValue(a, sortBy), orderValue(b, sortBy)) || compare(a.id, b.id)),
    )
    .map((file) => file.id);
}

/**
 * What a page may read, whatever the library's size: the caller's and the folder's or tag's read,
 * the expired-files check, `perpage` entries and one BatchGet of the page (0.5 a file), the tags
 * lookup (measured: 9–12 units for 15 files); then a numbered page's skip over `(page - 1) ×
 * perpage` compact entries, about one unit per 40 entries (a skip's entries are under 100 bytes;
 * the by-id index's, which carry the search fields, under 200: one unit per 20 at most).
 */
export const PAGE_MOST = 14;

export const pageMost = (page: number, perpage: number) => PAGE_MOST + ((page - 1) * perpage) / 20;

/** Every order, both directions, the first page and page `deep`: the cost tests' cases. */
export const everyOrder = (deep: string) =>
  SORT_FIELDS.flatMap((sortBy) =>
    (['asc', 'desc'] as const).flatMap((order) =>
      ['1', deep].map((page): [SortField, 'asc' | 'desc', string] => [sortBy, order, page]),
    ),
  );
