import { Alert, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import { passkeysSupported, useAddPasskey, useDeletePasskey, useRenamePasskey } from '../../api/passkeys.ts';
import type { UserResource } from '../../api/types.ts';
import { confirmDestructive } from '../../components/confirm.tsx';
import { Section } from './Section.tsx';

const onDate = (iso: string) => new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' });

type Passkey = UserResource['passkeys'][number];

/** One passkey: its name (renamed in place), when it was added and last used, delete. */
function PasskeyRow({ passkey }: { passkey: Passkey }) {
  const rename = useRenamePasskey();
  const remove = useDeletePasskey();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(passkey.name);
  const save = (event: FormEvent) => {
    event.preventDefault();
    rename.mutate({ id: passkey.id, name }, { onSuccess: () => setEditing(false) });
  };
  const error = rename.error ?? remove.error;
  return (
    <Stack gap={4}>
      {error && (
        <Alert color="red" role="alert">
          {errorMessage(error)}
        </Alert>
      )}
      {editing ? (
        <form onSubmit={save}>
          <Group align="end" wrap="wrap">
            <TextInput
              label="Passkey name"
              required
              maxLength={64}
              value={name}
              onChange={(event) => setName(event.currentTarget.value)}
              style={{ flex: 1 }}
            />
            <Button type="submit" loading={rename.isPending}>
              Save
            </Button>
            <Button variant="default" onClick={() => setEditing(false)}>
              Cancel
            </Button>
          </Group>
        </form>
      ) : (
        <Group justify="space-between" wrap="wrap">
          <div>
            <Text fw={500}>{passkey.name}</Text>
            <Text size="sm" c="dimmed">
              Added {onDate(passkey.createdAt)} ·{' '}
              {passkey.lastUsed ? `last used ${onDate(passkey.lastUsed)}` : 'not used yet'}
            </Text>
          </div>
          <Group gap="xs">
            <Button variant="default" onClick={() => setEditing(true)} aria-label={`Rename ${passkey.name}`}>
              Rename
            </Button>
            <Button
              variant="default"
              color="red"
              loading={remove.isPending}
              onClick={() =>
                confirmDestructive({
                  title: `Delete the passkey “${passkey.name}”?`,
                  message:
                    'You can no longer sign in with it. The device keeps it until you remove it there.',
                  confirm: 'Delete passkey',
                  onConfirm: () => remove.mutate(passkey.id),
                })
              }
              aria-label={`Delete ${passkey.name}`}
            >
              Delete
            </Button>
          </Group>
        </Group>
      )}
    </Stack>
  );
}

/**
 * Passkeys: add one (the browser asks the device, e.g. its fingerprint or PIN), rename or delete it.
 * Deleting the account's only way to sign in is refused, with the reason.
 */
export function PasskeysSection({ user }: { user: UserResource }) {
  const add = useAddPasskey();
  const [name, setName] = useState('');
  if (!passkeysSupported()) return null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate(name, { onSuccess: () => setName('') });
  };
  return (
    <Section
      title="Passkeys"
      intro="Sign in with your device's fingerprint, face or PIN instead of a password. Passkeys work at this address only."
    >
      <Stack>
        {add.error && (
          <Alert color="red" title="The passkey was not added" role="alert">
            {errorMessage(add.error)}
          </Alert>
        )}
        {user.passkeys.length === 0 && (
          <Text size="sm" c="dimmed">
            No passkeys yet.
          </Text>
        )}
        {user.passkeys.map((passkey) => (
          <PasskeyRow key={passkey.id} passkey={passkey} />
        ))}
        <form onSubmit={submit}>
          <Group align="end" wrap="wrap">
            <TextInput
              label="New passkey's name"
              placeholder="e.g. Laptop"
              maxLength={64}
              value={name}
              onChange={(event) => setName(event.currentTarget.value)}
              style={{ flex: 1 }}
            />
            <Button type="submit" loading={add.isPending}>
              Add a passkey
            </Button>
          </Group>
        </form>
      </Stack>
    </Section>
  );
}
