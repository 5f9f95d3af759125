import { Alert, PasswordInput, TextInput } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { describeError } from '../api/session.ts';

/** The failure of a form's request, as the API told it (with when to try again, when throttled). */
export function FormError({ error, title }: { error: unknown; title: string }) {
  if (!error) return null;
  return (
    <Alert color="red" icon={<IconAlertCircle />} role="alert" title={title}>
      {describeError(error)}
    </Alert>
  );
}

/** The username of the signed-out forms (sign-in, first run): focused first, filled by the browser. */
export function UsernameInput({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  return (
    <TextInput
      label="Username"
      autoComplete="username"
      required
      autoFocus
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
    />
  );
}

/** A confirmation that differs from the password it repeats (an empty one is not judged yet). */
export const passwordsDiffer = (password: string, confirmation: string) =>
  confirmation !== '' && confirmation !== password;

export interface NewPasswordProps {
  password: string;
  confirmation: string;
  onPassword: (value: string) => void;
  onConfirmation: (value: string) => void;
  labels: { password: string; confirmation: string };
  descriptions: { password: ReactNode; confirmation?: ReactNode };
}

/** A new password and its confirmation, which says when the two differ. */
export function NewPasswordInputs(props: NewPasswordProps) {
  return (
    <>
      <PasswordInput
        label={props.labels.password}
        description={props.descriptions.password}
        autoComplete="new-password"
        required
        minLength={8}
        value={props.password}
        onChange={(event) => props.onPassword(event.currentTarget.value)}
      />
      <PasswordInput
        label={props.labels.confirmation}
        description={props.descriptions.confirmation}
        autoComplete="new-password"
        required
        error={passwordsDiffer(props.password, props.confirmation) ? 'The passwords differ' : undefined}
        value={props.confirmation}
        onChange={(event) => props.onConfirmation(event.currentTarget.value)}
      />
    </>
  );
}
