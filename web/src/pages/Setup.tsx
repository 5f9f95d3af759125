import { Alert, Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { api } from '../api/client.ts';
import { describeError } from '../api/session.ts';
import { AuthCard } from '../components/AuthCard.tsx';

/** First run: creates the first SUPERADMIN, then signs in as it. */
export function SetupPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const setup = useQuery({
    queryKey: ['setup'],
    queryFn: () => api<{ firstSetup: boolean }>('/api/setup'),
  });
  const create = useMutation({
    mutationFn: async () => {
      await api('/api/setup', { method: 'POST', json: { username, password } });
      await api('/api/auth/login', { method: 'POST', json: { username, password } });
    },
    onSuccess: async () => {
      queryClient.clear();
      await navigate('/files', { replace: true });
    },
  });

  if (setup.data && !setup.data.firstSetup) return <Navigate to="/login" replace />;
  const mismatch = confirmation !== '' && confirmation !== password;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!mismatch) create.mutate();
  };

  return (
    <AuthCard
      title="Welcome"
      intro="Nobody has an account yet. Create the first one: it is the super administrator, who can add everyone else."
    >
      <form onSubmit={submit}>
        <Stack>
          {create.error && (
            <Alert color="red" icon={<IconAlertCircle />} role="alert" title="Setup failed">
              {describeError(create.error)}
            </Alert>
          )}
          <TextInput
            label="Username"
            autoComplete="username"
            required
            autoFocus
            value={username}
            onChange={(event) => setUsername(event.currentTarget.value)}
          />
          <PasswordInput
            label="Password"
            description="At least 8 characters"
            autoComplete="new-password"
            required
            minLength={8}
            value={password}
            onChange={(event) => setPassword(event.currentTarget.value)}
          />
          <PasswordInput
            label="Confirm password"
            autoComplete="new-password"
            required
            error={mismatch ? 'The passwords differ' : undefined}
            value={confirmation}
            onChange={(event) => setConfirmation(event.currentTarget.value)}
          />
          <Button type="submit" loading={create.isPending} fullWidth>
            Create account
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
