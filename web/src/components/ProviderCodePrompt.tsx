import { Anchor, Button, Stack } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { api } from '../api/client.ts';
import type { UserResource } from '../api/types.ts';
import { FormError } from './FormFields.tsx';
import { SecondFactorField } from './SecondFactorField.tsx';

/**
 * After a provider sign-in of an account with TOTP on (`/login?totp=<provider>`): the provider said
 * who you are, the code is still owed. `POST /api/auth/totp` takes it (with the pending sign-in's
 * cookie) and answers the session as a login does.
 */
export function ProviderCodePrompt({ onSignedIn }: { onSignedIn: () => Promise<void> }) {
  const [code, setCode] = useState('');
  const send = useMutation({
    mutationFn: () => api<{ user: UserResource }>('/api/auth/totp', { method: 'POST', json: { code } }),
    onError: () => setCode(''),
    onSuccess: onSignedIn,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    send.mutate();
  };
  return (
    <form onSubmit={submit}>
      <Stack>
        <FormError error={send.error} title="Sign-in failed" />
        <SecondFactorField value={code} onChange={setCode} />
        <Button type="submit" loading={send.isPending} fullWidth>
          Sign in
        </Button>
        {/* The pending sign-in lasts five minutes: past them, sign in again from the start. */}
        <Anchor component={Link} to="/login" size="sm" ta="center">
          Start again
        </Anchor>
      </Stack>
    </form>
  );
}
