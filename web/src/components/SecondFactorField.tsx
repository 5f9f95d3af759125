import { Anchor, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';

/**
 * The second factor a sign-in asks for: a code from the authenticator app or, by a switch, one of
 * the recovery codes. The password form and the prompt after a provider sign-in both use it.
 */
export function SecondFactorField({ value, onChange }: { value: string; onChange: (code: string) => void }) {
  const [recovery, setRecovery] = useState(false);
  return (
    <Stack gap={6}>
      <Text size="sm" role="status">
        {recovery
          ? 'Enter one of the recovery codes you saved when you turned on two-factor authentication.'
          : 'Your account has two-factor authentication: enter the code your authenticator app shows.'}
      </Text>
      <TextInput
        key={recovery ? 'recovery' : 'code'}
        label={recovery ? 'Recovery code' : 'Authentication code'}
        autoComplete="one-time-code"
        inputMode={recovery ? 'text' : 'numeric'}
        maxLength={32}
        required
        autoFocus
        value={value}
        onChange={(event) => onChange(event.currentTarget.value)}
      />
      <Anchor component="button" type="button" size="sm" onClick={() => setRecovery(!recovery)}>
        {recovery ? 'Use a code from the app' : 'Use a recovery code'}
      </Anchor>
    </Stack>
  );
}
