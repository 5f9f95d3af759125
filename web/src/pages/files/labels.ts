import type { SearchField, SortField } from '../../api/types.ts';

/** Every order the API offers (the `satisfies` keeps this list complete when the API adds one). */
export const SORT_LABELS = {
  createdAt: 'Upload date',
  updatedAt: 'Last change',
  deletesAt: 'Expiry',
  name: 'Public name',
  originalName: 'Original name',
  size: 'Size',
  type: 'Type',
  views: 'Views',
  favorite: 'Favorite',
  id: 'ID',
} satisfies Record<SortField, string>;

/** The text searches (a listing by tag is the tag filter's: `searchField=tags`). */
export const SEARCH_LABELS = {
  name: 'Public name',
  originalName: 'Original name',
  type: 'Type',
  id: 'ID',
} satisfies Record<Exclude<SearchField, 'tags'>, string>;

export const PER_PAGE = ['15', '30', '60', '100'];
