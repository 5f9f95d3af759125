import { api } from '../../api/client.ts';
import { type FileQuery, listingPath } from '../../api/files.ts';
import type { FileListing } from '../../api/types.ts';
import { PER_PAGE, SEARCH_LABELS, SORT_LABELS } from './labels.ts';

const pick = <T extends string>(value: string | null, allowed: Record<T, string>, fallback: T): T =>
  value !== null && value in allowed ? (value as T) : fallback;

/** The listing a files page address asks for (its state lives in the address). */
export function fileQueryFrom(params: URLSearchParams): FileQuery {
  return {
    page: Math.max(1, Number(params.get('page')) || 1),
    perpage: PER_PAGE.includes(params.get('perpage') ?? '') ? Number(params.get('perpage')) : 15,
    sortBy: pick(params.get('sortBy'), SORT_LABELS, 'createdAt'),
    order: params.get('order') === 'asc' ? 'asc' : 'desc',
    favorite: params.get('favorite') === 'true',
    // People look for what they named the file, not the random name the link got.
    searchField: pick(params.get('searchField'), SEARCH_LABELS, 'originalName') as FileQuery['searchField'],
    searchQuery: params.get('q') ?? '',
    // A folder's files (the Folders page's "Open"), in any order.
    ...(params.get('folder') ? { folder: params.get('folder') as string } : {}),
    tag: /^[0-9a-z]{26}$/.test(params.get('tag') ?? '') ? (params.get('tag') as string) : '',
  };
}

/** One page of `GET /api/user/files`, as the files page and the sign-in's prefetch both ask for it. */
export const fileListingQuery = (query: FileQuery) => ({
  queryKey: ['files', query],
  queryFn: () => api<FileListing>(listingPath(query)),
  // Long enough that the page does not fetch again what the sign-in just prefetched; the
  // dashboard's own changes refresh the listing at once (invalidation) whatever this says.
  staleTime: 5_000,
});
