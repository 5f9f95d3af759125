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
}

export function listingPath(query: FileQuery): string {
  const params = new URLSearchParams({
    page: String(query.page),
    perpage: String(query.perpage),
    sortBy: query.sortBy,
    order: query.order,
  });
  if (query.favorite) params.set('favorite', 'true');
  if (query.searchQuery.trim()) {
    params.set('searchField', query.searchField);
    params.set('searchQuery', query.searchQuery.trim());
  }
  return `/api/user/files?${params}`;
}

export type FilePatch = Partial<Pick<FileResource, 'favorite' | 'originalName' | 'maxViews' | 'deletesAt'>>;

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
