import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TotpOffer } from '../../../shared/mfa/offer.ts';
import { api } from './client.ts';
import type { CurrentUser, UserResource } from './types.ts';

/** `GET /api/user/mfa/totp`: the offer to enrol (the same secret until an enrolment), or `{enabled}`. */
export const totpQuery = {
  queryKey: ['totp'],
  queryFn: () => api<TotpOffer>('/api/user/mfa/totp'),
};

export const useTotp = () => useQuery(totpQuery);

/** The user in the cache changes with TOTP (its `totpSecret` marker); the offer is read again. */
function useTotpChange<TInput, TAnswer extends { user: UserResource }>(
  send: (input: TInput) => Promise<TAnswer>,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: (answer) => {
      queryClient.setQueryData<CurrentUser>(
        ['user'],
        (current) => current && { ...current, user: answer.user },
      );
      void queryClient.invalidateQueries({ queryKey: totpQuery.queryKey });
    },
  });
}

/** `POST /api/user/mfa/totp`: on, with the ten recovery codes shown this once. */
export const useTotpEnable = () =>
  useTotpChange((input: { secret: string; code: string }) =>
    api<{ user: UserResource; recoveryCodes: string[] }>('/api/user/mfa/totp', {
      method: 'POST',
      json: input,
    }),
  );

/** `DELETE /api/user/mfa/totp` with a code or a recovery code. */
export const useTotpDisable = () =>
  useTotpChange((code: string) =>
    api<{ user: UserResource }>('/api/user/mfa/totp', { method: 'DELETE', json: { code } }),
  );
