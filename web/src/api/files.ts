import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from './client.ts';
import type { FileResource, SearchField, SortField } from './types.ts';

export interface FileQuery {
  page: number;
  perpage: number;
  sortBy: SortField;
  order: 'asc' | 'desc';
  favorite: boolean;
  searchField: SearchField;
  searchQuery: string;
  /** A folder's id: its files only, in any order (no search or favourite filter with it). */
  folder?: string;
  /** A tag's id: the files having it (`searchField=tags`), instead of a text search. */
  tag: string;
}

export function listingPath(query: FileQuery): string {
  const params = new URLSearchParams({
    page: String(query.page),
    perpage: String(query.perpage),
    sortBy: query.sortBy,
    order: query.order,
  });
  if (query.folder) {
    params.set('folder', query.folder);
    return `/api/user/files?${params}`;
  }
  if (query.favorite) params.set('favorite', 'true');
  if (query.tag) {
    params.set('searchField', 'tags');
    params.set('searchQuery', query.tag);
  } else if (query.searchQuery.trim()) {
    params.set('searchField', query.searchField);
    params.set('searchQuery', query.searchQuery.trim());
  }
  return `/api/user/files?${params}`;
}

/** `password`: a string sets or replaces the file's password, null removes it (docs/files.md). */
export type FilePatch = Partial<
  Pick<FileResource, 'favorite' | 'originalName' | 'maxViews' | 'deletesAt'>
> & {
  password?: string | null;
  /** The ids of the file's tags from now on. */
  tags?: string[];
};

/** `GET /api/user/files/{id}`: the detail view's file, refreshed with the listing (same key prefix). */
export const fileQuery = (id: string) => ({
  queryKey: ['files', 'one', id],
  queryFn: () => api<FileResource>(`/api/user/files/${encodeURIComponent(id)}`),
});

/** Why an expiry cannot be chosen (null when it can): a past one would delete the file at once. */
export function pastExpiryError(iso: string | null, now = new Date()): string | null {
  return iso !== null && new Date(iso) <= now
    ? 'This time has passed: the file would be deleted at once. Choose a later time, or Never.'
    : null;
}

/** Changes and deletions; each refreshes the listing (and its counts) once it is done. */
export function useFileMutations() {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['files'] });
  const patch = useMutation({
    mutationFn: ({ ids, change }: { ids: string[]; change: FilePatch }) =>
      Promise.all(
        ids.map((id) =>
          api<FileResource>(`/api/user/files/${encodeURIComponent(id)}`, { method: 'PATCH', json: change }),
        ),
      ),
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: (ids: string[]) =>
      Promise.all(
        ids.map((id) => api<FileResource>(`/api/user/files/${encodeURIComponent(id)}`, { method: 'DELETE' })),
      ),
    onSettled: refresh,
  });
  return { patch, remove };
}
