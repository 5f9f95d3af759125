import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client.ts';

/** A folder as `/api/user/folders` answers it (docs/folders.md). */
export interface FolderResource {
  id: string;
  name: string;
  public: boolean;
  allowUploads: boolean;
  createdAt: string;
  updatedAt: string;
  _count: { files: number };
}

/** What a bulk route answers: how many changed, and the ids it could not change. */
export interface BulkResult {
  count: number;
  missing: string[];
  failed: string[];
}

export const foldersQuery = {
  queryKey: ['folders'],
  queryFn: () => api<FolderResource[]>('/api/user/folders'),
};

export const useFolders = () => useQuery(foldersQuery);

/** One change of a bulk PATCH: a favourite, a move (`folder: null`: out of any folder), tags. */
export type BulkChange =
  | { favorite: boolean }
  | { folder: string | null }
  | { tags: { add?: string[]; remove?: string[] } };

/**
 * The bulk routes (one request for up to 1,000 files, each file changed once or not at all): a
 * `BulkChange`, a deletion. Each refreshes the files and the folders' counts.
 */
export function useBulkMutations() {
  const queryClient = useQueryClient();
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ['files'] }),
      queryClient.invalidateQueries({ queryKey: ['folders'] }),
    ]);
  const change = useMutation({
    mutationFn: ({ ids, set }: { ids: string[]; set: BulkChange }) =>
      api<BulkResult>('/api/user/files/transaction', { method: 'PATCH', json: { files: ids, ...set } }),
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: (ids: string[]) =>
      api<BulkResult>('/api/user/files/transaction', { method: 'DELETE', json: { files: ids } }),
    onSettled: refresh,
  });
  return { change, remove };
}

/** Creating, changing and deleting folders; each refreshes the folders and the files. */
export function useFolderMutations() {
  const queryClient = useQueryClient();
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ['folders'] }),
      queryClient.invalidateQueries({ queryKey: ['files'] }),
    ]);
  const path = (id: string) => `/api/user/folders/${encodeURIComponent(id)}`;
  const create = useMutation({
    mutationFn: (name: string) =>
      api<FolderResource>('/api/user/folders', { method: 'POST', json: { name } }),
    onSettled: refresh,
  });
  const update = useMutation({
    mutationFn: ({
      id,
      change,
    }: {
      id: string;
      change: { name?: string; isPublic?: boolean; allowUploads?: boolean };
    }) => api<FolderResource>(path(id), { method: 'PATCH', json: change }),
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: ({ id, files }: { id: string; files: 'keep' | 'delete' }) =>
      api<FolderResource>(path(id), {
        method: 'DELETE',
        json: { delete: files === 'delete' ? true : 'folder' },
      }),
    onSettled: refresh,
  });
  return { create, update, remove };
}
