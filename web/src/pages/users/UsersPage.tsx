import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Group,
  Modal,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconLock, IconPlus } from '@tabler/icons-react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, api, errorMessage, request } from '../../api/client.ts';
import { formatDate } from '../../api/format.ts';
import { useCurrentUser } from '../../api/session.ts';
import { ROLES_BELOW, type UserResource } from '../../api/types.ts';
import { RowActions } from '../../components/RowActions.tsx';
import { type ListedUser, quotaText, UsageCell } from './columns.tsx';
import { type UserChange, UserForm } from './UserForm.tsx';

const PAGE_SIZE = 25;

/** One page of `GET /api/users` and the cursor of the next. */
async function usersPage(cursor: string | null) {
  const params = new URLSearchParams({ limit: String(PAGE_SIZE) });
  if (cursor) params.set('cursor', cursor);
  const response = await request(`/api/users?${params}`);
  return { users: (await response.json()) as ListedUser[], next: response.headers.get('x-next-cursor') };
}

export default function UsersPage() {
  const queryClient = useQueryClient();
  const me = useCurrentUser();
  // Cursors of the pages seen so far: back is the previous one, forward the page's `x-next-cursor`.
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const cursor = cursors[cursors.length - 1] ?? null;
  const list = useQuery({
    queryKey: ['users', cursor],
    queryFn: () => usersPage(cursor),
    placeholderData: keepPreviousData,
  });
  const [editing, setEditing] = useState<UserResource | 'new' | null>(null);
  const [deleting, setDeleting] = useState<UserResource | null>(null);
  const [deleteFiles, setDeleteFiles] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['users'] });

  const save = useMutation({
    mutationFn: (change: UserChange) =>
      editing === 'new'
        ? api<UserResource>('/api/users', { method: 'POST', json: change })
        : api<UserResource>(`/api/users/${encodeURIComponent((editing as UserResource).id)}`, {
            method: 'PATCH',
            json: change,
          }),
    onSuccess: (user) => {
      notifications.show({
        color: 'teal',
        message: editing === 'new' ? `${user.username} created` : `${user.username} saved`,
      });
      setEditing(null);
      void refresh();
    },
  });
  const remove = useMutation({
    mutationFn: async ({ user, withFiles }: { user: UserResource; withFiles: boolean }) => {
      const answer = await request(`/api/users/${encodeURIComponent(user.id)}`, {
        method: 'DELETE',
        json: { delete: withFiles },
      });
      // 202: a large account is finished in the background (docs/users-api.md); it is already signed out.
      return { user: (await answer.json()) as UserResource, finished: answer.status === 200 };
    },
    onSuccess: ({ user, finished }) => {
      notifications.show({
        message: finished
          ? `${user.username} deleted`
          : `${user.username} is being deleted: it is signed out, and its files go in the background`,
      });
      setDeleting(null);
      void refresh();
    },
  });

  const openEditor = (user: UserResource | 'new') => {
    save.reset();
    setEditing(user);
  };
  const openDelete = (user: UserResource) => {
    remove.reset();
    setDeleteFiles(false);
    setDeleting(user);
  };

  if (list.error instanceof ApiError && list.error.status === 403) {
    return (
      <Stack>
        <Title order={1}>Users</Title>
        {/* Blue: its text keeps 4.5:1 contrast on the tinted background (orange cannot). */}
        <Alert color="blue" title="Administrators only" icon={<IconLock size={20} />}>
          Your account ({me.data?.user.role ?? 'USER'}) cannot manage users. Ask an administrator.
        </Alert>
      </Stack>
    );
  }
  const roles = ROLES_BELOW[me.data?.user.role ?? 'USER'];

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>Users</Title>
        <Button leftSection={<IconPlus size={16} />} onClick={() => openEditor('new')}>
          Create user
        </Button>
      </Group>
      {list.error && <Alert color="red">{list.error.message}</Alert>}
      {/* Phone width: the creation date gives way so the actions stay in view without scrolling. */}
      <Table.ScrollContainer minWidth={360}>
        <Table striped highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Username</Table.Th>
              <Table.Th>Role</Table.Th>
              <Table.Th>Usage</Table.Th>
              <Table.Th visibleFrom="sm">Quota</Table.Th>
              <Table.Th visibleFrom="sm">Created</Table.Th>
              <Table.Th w={90}>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.data?.users.map((user) => (
              <Table.Tr key={user.id}>
                <Table.Td fw={500}>{user.username}</Table.Td>
                <Table.Td>
                  {/* Whole on a phone: the table narrows the usage before the badge. */}
                  <Badge variant="light" color={user.role === 'USER' ? 'gray' : 'blue'} miw="max-content">
                    {user.role}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  <UsageCell user={user} />
                </Table.Td>
                <Table.Td visibleFrom="sm">{quotaText(user)}</Table.Td>
                <Table.Td visibleFrom="sm">{formatDate(user.createdAt)}</Table.Td>
                <Table.Td>
                  <RowActions
                    subject={user.username}
                    onEdit={() => openEditor(user)}
                    onDelete={() => openDelete(user)}
                  />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {list.data?.users.length === 0 && (
        <Text c="dimmed" ta="center" py="lg">
          No other users yet. Create one to share this service.
        </Text>
      )}
      <Group justify="flex-end">
        <Button
          variant="default"
          disabled={cursors.length === 1}
          onClick={() => setCursors(cursors.slice(0, -1))}
        >
          Previous
        </Button>
        <Button
          variant="default"
          disabled={!list.data?.next}
          onClick={() => list.data?.next && setCursors([...cursors, list.data.next])}
        >
          Next
        </Button>
      </Group>

      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? 'Create user' : `Edit ${(editing as UserResource | null)?.username ?? ''}`}
      >
        {editing !== null && (
          <UserForm
            key={editing === 'new' ? 'new' : editing.id}
            user={editing === 'new' ? undefined : editing}
            roles={roles}
            pending={save.isPending}
            error={save.error}
            onSubmit={(change) => save.mutate(change)}
            onCancel={() => setEditing(null)}
          />
        )}
      </Modal>
      <Modal
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title={`Delete ${deleting?.username ?? ''}?`}
      >
        <Stack>
          <Text size="sm">
            The account, its sessions, token and file list are deleted for good. Its links stop working.
          </Text>
          <Checkbox
            label="Also delete the stored file contents"
            description="Otherwise the bytes stay in the bucket for you to recover."
            checked={deleteFiles}
            onChange={(e) => setDeleteFiles(e.currentTarget.checked)}
          />
          {remove.error && (
            <Alert color="red" role="alert">
              {errorMessage(remove.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDeleting(null)}>
              Cancel
            </Button>
            <Button
              color="red"
              loading={remove.isPending}
              onClick={() => deleting && remove.mutate({ user: deleting, withFiles: deleteFiles })}
            >
              Delete user
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
