import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from './client.ts';

/** A short link as `/api/user/urls` answers it (docs/links.md). */
export interface LinkResource {
  id: string;
  code: string;
  vanity: string | null;
  destination: string;
  views: number;
  maxViews: number | null;
  enabled: boolean;
  password: boolean;
  createdAt: string;
  updatedAt: string;
}

export type LinkSearchField = 'destination' | 'vanity' | 'code';

/** What the form sends: creation takes the Zipline headers for the limit and the password. */
export interface LinkInput {
  destination: string;
  vanity: string | null;
  maxViews: number | null;
  enabled: boolean;
  /** A string sets or replaces the password, null removes it, undefined leaves it. */
  password?: string | null;
}

/** The short link people share: `/go/` and the vanity, or the code. */
export const shortLink = (link: Pick<LinkResource, 'code' | 'vanity'>) =>
  `${window.location.origin}/go/${encodeURIComponent(link.vanity ?? link.code)}`;

export const linksQuery = (field: LinkSearchField, text: string) => ({
  queryKey: ['links', field, text],
  queryFn: () => {
    const params = new URLSearchParams();
    if (text.trim()) {
      params.set('searchField', field);
      params.set('searchQuery', text.trim());
    }
    return api<LinkResource[]>(`/api/user/urls?${params}`);
  },
});

const path = (id: string) => `/api/user/urls/${encodeURIComponent(id)}`;

/** Create, change, delete; each refreshes the list once it is done. */
export function useLinkMutations() {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['links'] });
  const create = useMutation({
    mutationFn: ({ destination, vanity, enabled, maxViews, password }: LinkInput) =>
      api<LinkResource & { url: string }>('/api/user/urls', {
        method: 'POST',
        json: { destination, vanity, enabled },
        headers: {
          ...(maxViews !== null ? { 'x-zipline-max-views': String(maxViews) } : {}),
          ...(password ? { 'x-zipline-password': password } : {}),
        },
      }),
    onSuccess: refresh,
  });
  const update = useMutation({
    mutationFn: ({ id, input }: { id: string; input: LinkInput }) =>
      api<LinkResource>(path(id), { method: 'PATCH', json: input }),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (id: string) => api<LinkResource>(path(id), { method: 'DELETE' }),
    onSettled: refresh,
  });
  return { create, update, remove };
}
