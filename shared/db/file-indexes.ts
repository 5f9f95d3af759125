/**
 * The file indexes' names (table.ts defines them), named by the query each serves: the files
 * entity (files/record/indexing.ts) uses these names and never spells an index attribute itself.
 */
export const FILE_INDEXES = {
  /** Files by id (= by creation), projecting the search fields: listings by id and searches. */
  byId: 'gsi2',
  byUpdatedAt: 'gsi3',
  /** Sparse: only files with a `deletesAt`. */
  byDeletesAt: 'gsi4',
  byName: 'gsi5',
  byOriginalName: 'gsi6',
  bySize: 'gsi7',
  byType: 'gsi8',
  /** Sparse: only files viewed at least once. */
  byViews: 'gsi9',
  /** Sparse: only favourites. */
  byFavorite: 'gsi10',
} as const;

/** The partition and sort key attributes of an index. */
export const indexKeyAttributes = (index: string) => ({ pk: `${index}pk`, sk: `${index}sk` });
