import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ExportResource } from '../../../shared/exports/model.ts';
import { api } from './client.ts';

export type { ExportResource };

/** How often the list is read again while an export runs (its progress is written once a second). */
const PROGRESS_POLL_MS = 2000;
const EXPORTS_KEY = ['exports'];

/** The caller's exports, newest first; read again every 2 s while one runs. */
export const useExports = () =>
  useQuery({
    queryKey: EXPORTS_KEY,
    queryFn: () => api<ExportResource[]>('/api/user/export'),
    refetchInterval: (query) =>
      query.state.data?.some((each) => each.state === 'running') ? PROGRESS_POLL_MS : false,
  });

/** Starts an export (409 with the API's message while one runs). */
export function useStartExport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      api<{ running: boolean; export: ExportResource }>('/api/user/export', { method: 'POST' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: EXPORTS_KEY }),
  });
}

export function useDeleteExport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api<{ deleted: boolean }>(`/api/user/export?id=${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: EXPORTS_KEY }),
  });
}

/** The download: the API answers with a redirect to a link valid for 5 minutes, made on each click. */
export const exportDownloadUrl = (id: string) => `/api/user/export?id=${encodeURIComponent(id)}`;
