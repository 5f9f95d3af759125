import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { InferInput } from 'valibot';
import type { patchCurrentUserSchema } from '../../../shared/validation/users/account.ts';
import { api } from './client.ts';
import type { CurrentUser, ViewSettings } from './types.ts';

/** `GET /api/user/token` (the Uploaders tab shows and resets it; the user menu copies it). */
export const tokenQuery = {
  queryKey: ['token'],
  queryFn: async () => (await api<{ token: string }>('/api/user/token')).token,
};

/** `PATCH /api/user`'s body, as the API's own schema reads it. */
export type AccountPatch = InferInput<typeof patchCurrentUserSchema>;

/** `PATCH /api/user`; the answer (user and token, which a password change replaces) goes into the cache. */
export function useAccountUpdate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: AccountPatch) => api<CurrentUser>('/api/user', { method: 'PATCH', json: change }),
    onSuccess: (answer, change) => {
      queryClient.setQueryData(['user'], answer);
      queryClient.setQueryData(['token'], answer.token);
      if ('avatar' in change) void queryClient.invalidateQueries({ queryKey: ['avatar'] });
    },
  });
}

export function useTokenReset() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => (await api<{ token: string }>('/api/user/token', { method: 'PATCH' })).token,
    onSuccess: (token) => {
      queryClient.setQueryData(['token'], token);
      queryClient.setQueryData<CurrentUser>(['user'], (current) => current && { ...current, token });
    },
  });
}

export const viewText = (view: ViewSettings, key: string) => {
  const value = view[key];
  return typeof value === 'string' ? value : '';
};
export const viewFlag = (view: ViewSettings, key: string) => view[key] === true;
