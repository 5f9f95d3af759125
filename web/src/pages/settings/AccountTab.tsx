import {
  Alert,
  Avatar,
  Button,
  FileButton,
  Group,
  PasswordInput,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type FormEvent, useState } from 'react';
import { useAccountUpdate } from '../../api/account.ts';
import { errorMessage } from '../../api/client.ts';
import { describeError, useAvatar } from '../../api/session.ts';
import type { UserResource } from '../../api/types.ts';
import { confirmDestructive } from '../../components/confirm.tsx';
import { NewPasswordInputs, passwordsDiffer } from '../../components/FormFields.tsx';
import { PasskeysSection } from './PasskeysSection.tsx';
import { ProvidersSection } from './ProvidersSection.tsx';
import { Section } from './Section.tsx';
import { SessionsSection } from './SessionsSection.tsx';
import { TwoFactorSection } from './TwoFactorSection.tsx';

const saved = (message: string) => notifications.show({ color: 'teal', message });

function UsernameForm({ user }: { user: UserResource }) {
  const update = useAccountUpdate();
  const [username, setUsername] = useState(user.username);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    update.mutate({ username: username.trim() }, { onSuccess: () => saved('Username saved') });
  };
  return (
    <Section title="Username">
      <form onSubmit={submit}>
        <Group align="flex-end" wrap="wrap">
          <TextInput
            label="Username"
            required
            maxLength={64}
            value={username}
            onChange={(event) => setUsername(event.currentTarget.value)}
            error={update.error ? errorMessage(update.error) : undefined}
            style={{ flex: '1 1 220px' }}
          />
          <Button type="submit" loading={update.isPending} disabled={username.trim() === user.username}>
            Save username
          </Button>
        </Group>
      </form>
    </Section>
  );
}

function PasswordForm({ user }: { user: UserResource }) {
  // Only an account with a provider can have no password (it was made by signing in with it).
  const mayHaveNone = user.oauthProviders.length > 0;
  const update = useAccountUpdate();
  // A session made by a provider (or a passkey) on an account with TOTP on needs the current
  // password or a code to change it (the API's rule); without a password, the code is the way.
  const codeInstead = mayHaveNone && user.totpSecret !== null;
  const [currentPassword, setCurrentPassword] = useState('');
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const mismatch = passwordsDiffer(password, confirmation);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (mismatch) return;
    update.mutate(
      { password, ...(currentPassword ? { currentPassword } : code ? { code } : {}) },
      {
        onSuccess: () => {
          setCurrentPassword('');
          setCode('');
          setPassword('');
          setConfirmation('');
          saved('Password changed; your other sessions are signed out');
        },
      },
    );
  };
  return (
    <Section
      title="Password"
      intro="Changing it signs out every other session (other browsers and devices) and replaces your API token."
    >
      <form onSubmit={submit}>
        <Stack>
          {update.error && (
            <Alert color="red" role="alert">
              {describeError(update.error)}
            </Alert>
          )}
          {/* The session alone could change it; asking for the current one keeps a borrowed or
              unlocked browser from taking the account over. An account made by signing in with a
              provider has none until it sets one: then the field stays empty, and with TOTP on a
              code stands in for it (the API refuses a token, and asks a session the password did not
              make for one or the other). */}
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <PasswordInput
              label="Current password"
              description={
                mayHaveNone
                  ? 'Leave it empty if your account has none yet (made by signing in with a provider)'
                  : undefined
              }
              autoComplete="current-password"
              required={!mayHaveNone}
              value={currentPassword}
              onChange={(event) => setCurrentPassword(event.currentTarget.value)}
            />
            {codeInstead && !currentPassword && (
              <TextInput
                label="Authentication code"
                description="Without a current password: a code from your authenticator app, or a recovery code"
                autoComplete="one-time-code"
                maxLength={32}
                value={code}
                onChange={(event) => setCode(event.currentTarget.value)}
              />
            )}
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <NewPasswordInputs
              password={password}
              confirmation={confirmation}
              onPassword={setPassword}
              onConfirmation={setConfirmation}
              labels={{ password: 'New password', confirmation: 'Confirm new password' }}
              descriptions={{ password: '8 to 72 characters', confirmation: 'The same again' }}
            />
          </SimpleGrid>
          <Group>
            <Button type="submit" loading={update.isPending}>
              Change password
            </Button>
          </Group>
        </Stack>
      </form>
    </Section>
  );
}

const readAsDataUrl = (file: File) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });

function AvatarForm({ user }: { user: UserResource }) {
  const update = useAccountUpdate();
  const current = useAvatar(user);
  const [picked, setPicked] = useState<string | null>(null);
  const shown = picked ?? current.data ?? null;
  return (
    <Section title="Avatar" intro="PNG, JPEG, GIF or WebP, up to 1 MB.">
      <Group wrap="wrap">
        <Avatar src={shown} size={72} radius="xl" alt={shown ? 'Your avatar' : undefined} color="blue">
          {user.username.slice(0, 2).toUpperCase()}
        </Avatar>
        <Stack gap="xs">
          <Group gap="xs">
            <FileButton
              accept="image/png,image/jpeg,image/gif,image/webp"
              onChange={async (file) => file && setPicked(await readAsDataUrl(file))}
            >
              {(props) => (
                <Button variant="default" {...props}>
                  Choose image
                </Button>
              )}
            </FileButton>
            {picked && (
              <Button
                loading={update.isPending}
                onClick={() =>
                  update.mutate(
                    { avatar: picked },
                    {
                      onSuccess: () => {
                        setPicked(null);
                        saved('Avatar saved');
                      },
                    },
                  )
                }
              >
                Save avatar
              </Button>
            )}
            {(picked || current.data) && (
              <Button
                variant="subtle"
                color="red"
                onClick={() =>
                  picked
                    ? setPicked(null)
                    : confirmDestructive({
                        title: 'Remove your avatar?',
                        message: 'The picture is deleted; choose an image again to have one.',
                        confirm: 'Remove avatar',
                        onConfirm: () =>
                          update.mutate({ avatar: null }, { onSuccess: () => saved('Avatar removed') }),
                      })
                }
              >
                {picked ? 'Cancel' : 'Remove avatar'}
              </Button>
            )}
          </Group>
          {update.error && (
            <Text c="red" size="sm" role="alert">
              {errorMessage(update.error)}
            </Text>
          )}
        </Stack>
      </Group>
    </Section>
  );
}

export function AccountTab({ user }: { user: UserResource }) {
  return (
    <Stack maw={760}>
      <UsernameForm user={user} />
      <PasswordForm user={user} />
      <TwoFactorSection />
      <AvatarForm user={user} />
      <PasskeysSection user={user} />
      <ProvidersSection user={user} />
      <SessionsSection />
    </Stack>
  );
}
