import {
  Anchor,
  Button,
  CopyButton,
  Group,
  Menu,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCopy, IconFolderOpen, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../api/client.ts';
import { type FolderResource, useFolderMutations, useFolders } from '../../api/folders.ts';
import { confirmDestructive } from '../../components/confirm.tsx';

const publicLink = (folder: FolderResource) => `${window.location.origin}/folder/${folder.id}`;

/** One folder's row: its name (renamed on blur), its switches, its files, its deletion. */
function FolderRow({ folder }: { folder: FolderResource }) {
  const { update, remove } = useFolderMutations();
  const [name, setName] = useState(folder.name);
  const onError = (error: Error) => notifications.show({ color: 'red', message: errorMessage(error) });
  const change = (value: { name?: string; isPublic?: boolean; allowUploads?: boolean }) =>
    update.mutate({ id: folder.id, change: value }, { onError });
  const files = `${folder._count.files} file${folder._count.files === 1 ? '' : 's'}`;
  const deleteWith = (files: 'keep' | 'delete') =>
    confirmDestructive({
      title: `Delete ${folder.name}`,
      message:
        files === 'keep'
          ? `The folder goes; its ${folder._count.files} files stay, outside any folder.`
          : `The folder and its ${folder._count.files} files are deleted for good: links stop working, space is freed.`,
      confirm: files === 'keep' ? 'Delete folder, keep files' : 'Delete folder and files',
      onConfirm: () => remove.mutate({ id: folder.id, files }, { onError }),
    });
  return (
    <Table.Tr>
      <Table.Td>
        <TextInput
          aria-label={`Name of ${folder.name}`}
          value={name}
          size="xs"
          onChange={(event) => setName(event.currentTarget.value)}
          onBlur={() => name.trim() && name.trim() !== folder.name && change({ name: name.trim() })}
        />
      </Table.Td>
      <Table.Td>
        <Stack gap={4}>
          <Switch
            label="Public"
            checked={folder.public}
            onChange={(event) => change({ isPublic: event.currentTarget.checked })}
          />
          {folder.public && (
            <Group gap={4} wrap="nowrap">
              <Anchor href={publicLink(folder)} target="_blank" size="xs">
                /folder/{folder.id.slice(0, 8)}…
              </Anchor>
              <CopyButton value={publicLink(folder)}>
                {({ copy }) => (
                  <Button size="compact-xs" variant="subtle" onClick={copy} aria-label="Copy the public link">
                    <IconCopy size={12} />
                  </Button>
                )}
              </CopyButton>
            </Group>
          )}
        </Stack>
      </Table.Td>
      <Table.Td>
        <Switch
          label="Uploads without a token"
          checked={folder.allowUploads}
          onChange={(event) => change({ allowUploads: event.currentTarget.checked })}
        />
      </Table.Td>
      <Table.Td>
        <Button
          component={Link}
          to={`/files?folder=${folder.id}`}
          size="xs"
          variant="default"
          leftSection={<IconFolderOpen size={14} />}
        >
          {files}
        </Button>
      </Table.Td>
      <Table.Td>
        <Menu position="bottom-end">
          <Menu.Target>
            <Button size="xs" color="red" variant="light" leftSection={<IconTrash size={14} />}>
              Delete
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item onClick={() => deleteWith('keep')}>Delete folder, keep its files</Menu.Item>
            <Menu.Item color="red" onClick={() => deleteWith('delete')}>
              Delete folder and its files
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      </Table.Td>
    </Table.Tr>
  );
}

/** The caller's folders (issue 35): create, rename, public link, uploads without a token, open, delete. */
export default function FoldersPage() {
  const folders = useFolders();
  const { create } = useFolderMutations();
  const [name, setName] = useState('');
  const add = () =>
    create.mutate(name.trim(), {
      onSuccess: () => setName(''),
      onError: (error) => notifications.show({ color: 'red', message: errorMessage(error) }),
    });
  return (
    <Stack>
      <Title order={2}>Folders</Title>
      <Group align="end">
        <TextInput label="New folder" value={name} onChange={(event) => setName(event.currentTarget.value)} />
        <Button
          leftSection={<IconPlus size={14} />}
          disabled={!name.trim()}
          loading={create.isPending}
          onClick={add}
        >
          Create
        </Button>
      </Group>
      {folders.data?.length === 0 && <Text c="dimmed">No folders yet.</Text>}
      {!!folders.data?.length && (
        <Table.ScrollContainer minWidth={720}>
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Public page</Table.Th>
                <Table.Th>Uploads</Table.Th>
                <Table.Th>Files</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {folders.data.map((folder) => (
                <FolderRow key={folder.id} folder={folder} />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
