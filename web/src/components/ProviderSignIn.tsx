import { Alert, Button, Divider, Stack } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { providerStartPath, useSignInProviders } from '../api/oauth.ts';
import { ProviderIcon } from './ProviderIcon.tsx';

/** Why a sign-in with a provider failed: the callback sends the browser back with `error=...`. */
export function ProviderSignInError() {
  const [params] = useSearchParams();
  const error = params.get('error');
  if (!error) return null;
  return (
    <Alert color="red" title="Sign-in failed" role="alert" mb="md">
      {error}
    </Alert>
  );
}

/** One "Sign in with <provider>" per provider the deployment offers; nothing when it offers none. */
export function ProviderSignInButtons() {
  const providers = useSignInProviders();
  if (!providers.data?.length) return null;
  return (
    <Stack gap="sm" mt="lg">
      <Divider label="or" labelPosition="center" />
      {providers.data.map((provider) => (
        <Button
          key={provider.id}
          component="a"
          href={providerStartPath(provider.id)}
          variant="default"
          fullWidth
          leftSection={<ProviderIcon id={provider.id} />}
        >
          Sign in with {provider.name}
        </Button>
      ))}
    </Stack>
  );
}
