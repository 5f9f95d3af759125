import {
  browserSupportsWebAuthn,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  startAuthentication,
  startRegistration,
} from '@simplewebauthn/browser';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UserResource } from '../../../shared/users/model.ts';
import { api } from './client.ts';
import type { CurrentUser } from './types.ts';

/** Passkeys (docs/passkeys.md): the browser's WebAuthn ceremonies by @simplewebauthn/browser. */

export const passkeysSupported = () => browserSupportsWebAuthn();

function useUserAnswer() {
  const queryClient = useQueryClient();
  return ({ user }: { user: UserResource }) => {
    queryClient.setQueryData<CurrentUser>(['user'], (current) => current && { ...current, user });
  };
}

/** Options, the authenticator's answer, then `POST /api/user/passkeys`. */
export function useAddPasskey() {
  return useMutation({
    mutationFn: async (name: string) => {
      const optionsJSON = await api<PublicKeyCredentialCreationOptionsJSON>('/api/user/passkeys/options', {
        method: 'POST',
      });
      const response = await startRegistration({ optionsJSON });
      return api<{ user: UserResource }>('/api/user/passkeys', {
        method: 'POST',
        json: { response, ...(name.trim() ? { name } : {}) },
      });
    },
    onSuccess: useUserAnswer(),
  });
}

export function useRenamePasskey() {
  return useMutation({
    mutationFn: ({ id, name }: { id: string; name: string }) =>
      api<{ user: UserResource }>(`/api/user/passkeys/${encodeURIComponent(id)}`, {
        method: 'PATCH',
        json: { name },
      }),
    onSuccess: useUserAnswer(),
  });
}

export function useDeletePasskey() {
  return useMutation({
    mutationFn: (id: string) =>
      api<{ user: UserResource }>(`/api/user/passkeys/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: useUserAnswer(),
  });
}

/** Sign-in: options (no username: the browser offers this site's passkeys), the answer, the cookie. */
export async function signInWithPasskey(): Promise<{ user: UserResource }> {
  const optionsJSON = await api<PublicKeyCredentialRequestOptionsJSON>('/api/auth/passkey/options', {
    method: 'POST',
  });
  const response = await startAuthentication({ optionsJSON });
  return api<{ user: UserResource }>('/api/auth/passkey', { method: 'POST', json: { response } });
}
