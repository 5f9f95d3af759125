import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TagSummary } from '../../../shared/files/model.ts';
import { api } from './client.ts';

/** A tag as the API answers it (docs/tags.md). */
export type Tag = TagSummary;

/** `GET /api/user/tags`: the caller's tags, oldest first. */
export const tagsQuery = {
  queryKey: ['tags'],
  queryFn: () => api<Tag[]>('/api/user/tags'),
};

/** Creating, changing and deleting tags; each refreshes the tags and the files (their chips). */
export function useTagMutations() {
  const queryClient = useQueryClient();
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ['tags'] }),
      queryClient.invalidateQueries({ queryKey: ['files'] }),
    ]);
  const create = useMutation({
    mutationFn: (tag: { name: string; color: string }) =>
      api<Tag>('/api/user/tags', { method: 'POST', json: tag }),
    onSettled: refresh,
  });
  const update = useMutation({
    mutationFn: ({ id, ...change }: { id: string; name?: string; color?: string }) =>
      api<Tag>(`/api/user/tags/${encodeURIComponent(id)}`, { method: 'PATCH', json: change }),
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: (id: string) => api(`/api/user/tags/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSettled: refresh,
  });
  return { create, update, remove };
}
