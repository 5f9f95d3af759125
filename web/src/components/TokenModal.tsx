import { api } from '../api/client.ts';

/** `GET /api/user/token` (the Uploaders tab shows and resets it; the user menu copies it). */
export const tokenQuery = {
  queryKey: ['token'],
  queryFn: async () => (await api<{ token: string }>('/api/user/token')).token,
};
