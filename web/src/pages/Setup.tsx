import { Button, Stack, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { api } from '../api/client.ts';
import { setupQuery } from '../api/session.ts';
import { AuthCard } from '../components/AuthCard.tsx';
import { FormError, NewPasswordInputs, passwordsDiffer, UsernameInput } from '../components/FormFields.tsx';
import { prefetchLanding, preloadSignedIn } from './signed-in.ts';

/** First run: creates the first SUPERADMIN, then signs in as it. */
export function SetupPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [code, setCode] = useState('');
  const setup = useQuery(setupQuery);
  const codeRequired = setup.data?.codeRequired === true;
  const create = useMutation({
    mutationFn: async () => {
      const json = codeRequired ? { username, password, code } : { username, password };
      await api('/api/setup', { method: 'POST', json });
      await api('/api/auth/login', { method: 'POST', json: { username, password } });
    },
    onSuccess: async () => {
      prefetchLanding(queryClient, '/home');
      await navigate('/home', { replace: true });
    },
  });

  if (setup.data && !setup.data.firstSetup) return <Navigate to="/login" replace />;
  const mismatch = passwordsDiffer(password, confirmation);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (mismatch) return;
    preloadSignedIn();
    create.mutate();
  };

  return (
    <AuthCard
      title="Welcome"
      intro="Nobody has an account yet. Create the first one: it is the super administrator, who can add everyone else."
    >
      <form onSubmit={submit}>
        <Stack>
          <FormError error={create.error} title="Setup failed" />
          {codeRequired && (
            <TextInput
              label="Setup code"
              description="The deployment's one-time code: run the command in the deploy's SetupCodeCommand output"
              value={code}
              onChange={(event) => setCode(event.currentTarget.value)}
              autoComplete="off"
              spellCheck={false}
              required
            />
          )}
          <UsernameInput value={username} onChange={setUsername} />
          <NewPasswordInputs
            password={password}
            confirmation={confirmation}
            onPassword={setPassword}
            onConfirmation={setConfirmation}
            labels={{ password: 'Password', confirmation: 'Confirm password' }}
            descriptions={{ password: 'At least 8 characters' }}
          />
          <Button type="submit" loading={create.isPending} fullWidth>
            Create account
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
