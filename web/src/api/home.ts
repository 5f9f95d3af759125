import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SessionList } from '../../../shared/accounts/sessions.ts';
import type { UserStats } from '../../../shared/accounts/stats.ts';
import { api } from './client.ts';
import type { FileResource } from './types.ts';

export type { SessionList, UserStats };
export type SessionResource = NonNullable<SessionList['current']>;

/** Recent files the home page shows (Zipline's `take`, 1–100). */
export const RECENT_ON_HOME = 8;

/** The caller's figures (`GET /api/user/stats`); an upload or a change invalidates `['files']` too. */
export const userStatsQuery = {
  queryKey: ['files', 'stats'],
  queryFn: () => api<UserStats>('/api/user/stats'),
};
export const useUserStats = () => useQuery(userStatsQuery);

export const recentFilesQuery = {
  queryKey: ['files', 'recent', RECENT_ON_HOME],
  queryFn: () => api<FileResource[]>(`/api/user/recent?take=${RECENT_ON_HOME}`),
};
export const useRecentFiles = () => useQuery(recentFilesQuery);

export const useSessions = () =>
  useQuery({ queryKey: ['sessions'], queryFn: () => api<SessionList>('/api/user/sessions') });

/** Ends one session, or every one but this (`all`); the answer is the list as it is now. */
export function useEndSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (target: { sessionId: string } | { all: true }) =>
      api<SessionList>('/api/user/sessions', { method: 'DELETE', json: target }),
    onSuccess: (list) => {
      queryClient.setQueryData(['sessions'], list);
      void queryClient.invalidateQueries({ queryKey: ['user'] });
    },
  });
}
