import {
  ActionIcon,
  Alert,
  Button,
  CopyButton,
  Group,
  NumberInput,
  Select,
  Stack,
  Table,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconCheck, IconCopy, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, errorMessage } from '../../api/client.ts';
import { formatDate } from '../../api/format.ts';
import type { Invite } from '../../api/server.ts';
import { confirmDestructive } from '../../components/confirm.tsx';
import { Section } from '../settings/Section.tsx';

const EXPIRIES = [
  { value: '1d', label: 'In a day' },
  { value: '7d', label: 'In a week' },
  { value: '30d', label: 'In 30 days' },
  { value: 'never', label: 'Never' },
];

const inviteLink = (code: string) => `${window.location.origin}/invite/${encodeURIComponent(code)}`;

/** Invites (administrators, issue 38): make one, copy its link, see its uses, delete it. */
export default function InvitesPage() {
  const queryClient = useQueryClient();
  const invites = useQuery({ queryKey: ['invites'], queryFn: () => api<Invite[]>('/api/auth/invites') });
  const [expiresAt, setExpiresAt] = useState('7d');
  const [maxUses, setMaxUses] = useState<number | ''>(1);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['invites'] });
  const create = useMutation({
    mutationFn: () =>
      api<Invite>('/api/auth/invites', {
        method: 'POST',
        json: { expiresAt, maxUses: maxUses === '' ? null : maxUses },
      }),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (invite: Invite) =>
      api(`/api/auth/invites/${encodeURIComponent(invite.id)}`, { method: 'DELETE' }),
    onSuccess: refresh,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };

  return (
    <Stack maw={900}>
      <Title order={1} size="h2">
        Invites
      </Title>
      <Section
        title="New invite"
        intro="Whoever opens its link can create an account, while registration is closed."
      >
        <form onSubmit={submit} aria-label="New invite">
          <Group align="end">
            <Select
              label="Expires"
              data={EXPIRIES}
              value={expiresAt}
              allowDeselect={false}
              onChange={(value) => setExpiresAt(value ?? '7d')}
              w={160}
            />
            <NumberInput
              label="Uses"
              description="Empty: no limit"
              min={1}
              value={maxUses}
              onChange={(value) => setMaxUses(value === '' ? '' : Number(value))}
              w={160}
            />
            <Button type="submit" loading={create.isPending}>
              Create invite
            </Button>
          </Group>
          {create.error && (
            <Alert color="red" mt="md" role="alert">
              {errorMessage(create.error)}
            </Alert>
          )}
        </form>
      </Section>
      {invites.error && <Alert color="red">{errorMessage(invites.error)}</Alert>}
      {invites.data && invites.data.length === 0 && <Text c="dimmed">No invites yet.</Text>}
      {invites.data && invites.data.length > 0 && (
        <Table.ScrollContainer minWidth={560}>
          <Table striped aria-label="Invites">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Code</Table.Th>
                <Table.Th>Uses</Table.Th>
                <Table.Th>Expires</Table.Th>
                <Table.Th>By</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {invites.data.map((invite) => (
                <Table.Tr key={invite.id}>
                  <Table.Td ff="monospace">{invite.code}</Table.Td>
                  <Table.Td>
                    {invite.uses} / {invite.maxUses ?? '∞'}
                  </Table.Td>
                  <Table.Td>{invite.expiresAt ? formatDate(invite.expiresAt) : 'Never'}</Table.Td>
                  <Table.Td>{invite.inviter.username}</Table.Td>
                  <Table.Td>
                    <Group gap={4} justify="end" wrap="nowrap">
                      <CopyButton value={inviteLink(invite.code)}>
                        {({ copied, copy }) => (
                          <Tooltip label={copied ? 'Copied' : 'Copy link'}>
                            <ActionIcon
                              variant="subtle"
                              onClick={copy}
                              aria-label={`Copy the link of ${invite.code}`}
                            >
                              {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                            </ActionIcon>
                          </Tooltip>
                        )}
                      </CopyButton>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={`Delete ${invite.code}`}
                        onClick={() =>
                          confirmDestructive({
                            title: 'Delete this invite?',
                            message: `Its link (${invite.code}) stops opening registration.`,
                            confirm: 'Delete invite',
                            onConfirm: () => remove.mutate(invite),
                          })
                        }
                      >
                        <IconTrash size={16} />
                      </ActionIcon>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
