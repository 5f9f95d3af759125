import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { UserResource } from '../../../shared/users/model.ts';
import { api } from './client.ts';
import type { CurrentUser } from './types.ts';

/** A sign-in provider this deployment offers: its id and the name on its button. */
export interface SignInProvider {
  id: string;
  name: string;
}

/**
 * `GET /api/server/public` (no authentication), as far as the dashboard reads it: the sign-in
 * providers (`GET /api/auth/oauth` is Zipline's list of the caller's linked ones).
 */
interface PublicServerConfig {
  signInProviders: SignInProvider[];
}

export const providersQuery = {
  queryKey: ['oauth-providers'],
  queryFn: async () => (await api<PublicServerConfig>('/api/server/public')).signInProviders,
  // Configured per deployment: it changes only with a deploy.
  staleTime: Number.POSITIVE_INFINITY,
};

export const useSignInProviders = () => useQuery(providersQuery);

/**
 * Where the browser goes to sign in with a provider: a full navigation, since the provider's page is
 * another site.
 */
export const providerStartPath = (id: string) => `/api/auth/oauth/${encodeURIComponent(id)}`;

/**
 * Links a provider to the signed-in account: `POST /api/auth/oauth/{id}` with the session (a token
 * or another site's page is refused) answers the provider's sign-in page, where the browser goes.
 */
export function useStartLink() {
  return useMutation({
    mutationFn: (id: string) => api<{ url: string }>(providerStartPath(id), { method: 'POST' }),
    onSuccess: ({ url }) => window.location.assign(url),
  });
}

/** `DELETE /api/user/oauth`; the user it answers goes into the cache. */
export function useUnlinkProvider() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (provider: string) =>
      api<{ user: UserResource }>('/api/user/oauth', { method: 'DELETE', json: { provider } }),
    onSuccess: ({ user }) => {
      queryClient.setQueryData<CurrentUser>(['user'], (current) => current && { ...current, user });
    },
  });
}
