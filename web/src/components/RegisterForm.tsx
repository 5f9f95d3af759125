import { Button, Stack } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { api } from '../api/client.ts';
import { prefetchLanding, preloadSignedIn } from '../pages/signed-in.ts';
import { FormError, NewPasswordInputs, passwordsDiffer, UsernameInput } from './FormFields.tsx';

/**
 * `POST /api/auth/register` (issue 38): an account, signed in at once; with an invite's code when
 * registration is closed. The API's message says why a registration is refused.
 */
export function RegisterForm({ code }: { code?: string }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const register = useMutation({
    mutationFn: () =>
      api('/api/auth/register', { method: 'POST', json: { username, password, ...(code ? { code } : {}) } }),
    onSuccess: async () => {
      prefetchLanding(queryClient, '/files');
      await navigate('/files', { replace: true });
    },
  });
  const mismatch = passwordsDiffer(password, confirmation);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (mismatch) return;
    preloadSignedIn();
    register.mutate();
  };
  return (
    <form onSubmit={submit} aria-label="Create an account">
      <Stack>
        <FormError error={register.error} title="Registration failed" />
        <UsernameInput value={username} onChange={setUsername} />
        <NewPasswordInputs
          password={password}
          confirmation={confirmation}
          onPassword={setPassword}
          onConfirmation={setConfirmation}
          labels={{ password: 'Password', confirmation: 'Confirm password' }}
          descriptions={{ password: 'At least 8 characters' }}
        />
        <Button type="submit" loading={register.isPending} fullWidth>
          Create account
        </Button>
      </Stack>
    </form>
  );
}
