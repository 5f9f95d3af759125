import { Anchor, Button, PasswordInput, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { api } from '../api/client.ts';
import { usePageTitle, useServerInfo } from '../api/server.ts';
import { safeNext, setupQuery } from '../api/session.ts';
import type { UserResource } from '../api/types.ts';
import { AuthCard } from '../components/AuthCard.tsx';
import { FormError, UsernameInput } from '../components/FormFields.tsx';
import { PasskeySignInButton } from '../components/PasskeySignIn.tsx';
import { ProviderCodePrompt } from '../components/ProviderCodePrompt.tsx';
import { ProviderSignInButtons, ProviderSignInError } from '../components/ProviderSignIn.tsx';
import { RegisterForm } from '../components/RegisterForm.tsx';
import { SecondFactorField } from '../components/SecondFactorField.tsx';
import { prefetchLanding, preloadSignedIn } from './signed-in.ts';

type LoginAnswer = { user: UserResource } | { totp: true };

export function LoginPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [needsCode, setNeedsCode] = useState(false);
  const setup = useQuery(setupQuery);
  const server = useServerInfo();
  const [registering, setRegistering] = useState(false);
  usePageTitle(registering ? 'Create an account' : 'Sign in');
  const registrationOpen = server.data?.features.userRegistration === true;
  const loginText = server.data?.website.loginText;
  const login = useMutation({
    mutationFn: () =>
      api<LoginAnswer>('/api/auth/login', {
        method: 'POST',
        json: { username, password, ...(needsCode ? { code } : {}) },
      }),
    // A refused code is spent or wrong: the field is cleared for the next one.
    onError: () => setCode(''),
    onSuccess: async (answer) => {
      if ('totp' in answer) {
        setNeedsCode(true);
        return;
      }
      await enter();
    },
  });
  const enter = async () => {
    const target = safeNext(params.get('next'));
    prefetchLanding(queryClient, target);
    await navigate(target, { replace: true });
  };

  if (setup.data?.firstSetup) return <Navigate to="/setup" replace />;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    preloadSignedIn();
    login.mutate();
  };

  // A provider sign-in of an account with TOTP on comes back here for the code.
  if (params.get('totp') && !params.get('error'))
    return (
      <AuthCard
        title="Sign in"
        intro="The provider signed you in; your account also asks for its second factor."
      >
        <ProviderCodePrompt onSignedIn={enter} />
      </AuthCard>
    );

  if (registering && registrationOpen)
    return (
      <AuthCard
        title="Create an account"
        intro="Choose a username and a password; you are signed in at once."
      >
        <RegisterForm />
        <Text size="sm" mt="md" ta="center">
          Already have an account?{' '}
          <Anchor component="button" type="button" onClick={() => setRegistering(false)}>
            Sign in
          </Anchor>
        </Text>
      </AuthCard>
    );

  return (
    <AuthCard title="Sign in" intro="Sign in to manage your files, uploaders and account.">
      <ProviderSignInError />
      <form onSubmit={submit}>
        <Stack>
          <FormError error={login.error} title="Sign-in failed" />
          <UsernameInput value={username} onChange={setUsername} />
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(event) => setPassword(event.currentTarget.value)}
          />
          {needsCode && <SecondFactorField value={code} onChange={setCode} />}
          <Button type="submit" loading={login.isPending} fullWidth>
            Sign in
          </Button>
        </Stack>
      </form>
      <PasskeySignInButton onSignedIn={enter} />
      <ProviderSignInButtons />
      {registrationOpen && (
        <Text size="sm" mt="md" ta="center">
          No account yet?{' '}
          <Anchor component="button" type="button" onClick={() => setRegistering(true)}>
            Create an account
          </Anchor>
        </Text>
      )}
      {loginText && (
        <Text size="sm" c="dimmed" mt="md" style={{ whiteSpace: 'pre-line' }} data-testid="login-text">
          {loginText}
        </Text>
      )}
    </AuthCard>
  );
}
