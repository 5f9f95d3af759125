import { Button, Divider, Stack } from '@mantine/core';
import { IconFingerprint } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { passkeysSupported, signInWithPasskey } from '../api/passkeys.ts';
import { FormError } from './FormFields.tsx';

/** "Sign in with a passkey" under the sign-in form, in browsers that can (WebAuthn). */
export function PasskeySignInButton({ onSignedIn }: { onSignedIn: () => Promise<void> }) {
  const signIn = useMutation({ mutationFn: signInWithPasskey, onSuccess: onSignedIn });
  if (!passkeysSupported()) return null;
  return (
    <Stack gap="sm" mt="lg">
      <Divider label="or" labelPosition="center" />
      <FormError error={signIn.error} title="Passkey sign-in failed" />
      <Button
        variant="default"
        fullWidth
        leftSection={<IconFingerprint size={18} aria-hidden />}
        loading={signIn.isPending}
        onClick={() => signIn.mutate()}
      >
        Sign in with a passkey
      </Button>
    </Stack>
  );
}
