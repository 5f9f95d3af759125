import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Modal,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import { formatDate } from '../../api/format.ts';
import {
  type LinkInput,
  type LinkResource,
  type LinkSearchField,
  linksQuery,
  shortLink,
  useLinkMutations,
} from '../../api/links.ts';
import { confirmDestructive } from '../../components/confirm.tsx';
import { RowActions } from '../../components/RowActions.tsx';
import { LinkForm } from './LinkForm.tsx';

const SORTS = {
  newest: (a: LinkResource, b: LinkResource) => b.createdAt.localeCompare(a.createdAt),
  oldest: (a: LinkResource, b: LinkResource) => a.createdAt.localeCompare(b.createdAt),
  views: (a: LinkResource, b: LinkResource) => b.views - a.views,
  destination: (a: LinkResource, b: LinkResource) => a.destination.localeCompare(b.destination),
};
type Sort = keyof typeof SORTS;

/** The caller's short links (issue 34): list, search, sort, create, edit, delete, copy. */
export default function LinksPage() {
  const [field, setField] = useState<LinkSearchField>('destination');
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const [sort, setSort] = useState<Sort>('newest');
  const list = useQuery({ ...linksQuery(field, debounced), placeholderData: keepPreviousData });
  const { create, update, remove } = useLinkMutations();
  const [editing, setEditing] = useState<LinkResource | 'new' | null>(null);
  // Set when the dialog opens, so its title stays put while it closes.
  const [title, setTitle] = useState('');
  const saving = editing === 'new' ? create : update;

  const open = (link: LinkResource | 'new') => {
    create.reset();
    update.reset();
    setTitle(link === 'new' ? 'Shorten a link' : `Edit /go/${link.vanity ?? link.code}`);
    setEditing(link);
  };
  const save = (input: LinkInput) => {
    if (editing === 'new')
      create.mutate(input, {
        onSuccess: (link) => {
          notifications.show({ color: 'teal', message: `Shortened: ${link.url}` });
          setEditing(null);
        },
      });
    else if (editing)
      update.mutate(
        { id: editing.id, input },
        {
          onSuccess: () => {
            notifications.show({ color: 'teal', message: 'Link saved' });
            setEditing(null);
          },
        },
      );
  };
  const confirmDelete = (link: LinkResource) =>
    confirmDestructive({
      title: 'Delete this link?',
      message: `${shortLink(link)} stops working for everyone it was shared with.`,
      confirm: 'Delete link',
      onConfirm: () =>
        remove.mutate(link.id, {
          onSuccess: () => notifications.show({ message: 'Link deleted' }),
          onError: (error) => notifications.show({ color: 'red', message: errorMessage(error) }),
        }),
    });

  const links = [...(list.data ?? [])].sort(SORTS[sort]);
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>Links</Title>
        <Button leftSection={<IconPlus size={16} />} onClick={() => open('new')}>
          Shorten a link
        </Button>
      </Group>
      <Group align="flex-end">
        <TextInput
          label="Search"
          leftSection={<IconSearch size={16} aria-hidden />}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          style={{ flex: 1, minWidth: 180 }}
        />
        <Select
          label="In"
          w={150}
          allowDeselect={false}
          value={field}
          onChange={(value) => setField((value ?? 'destination') as LinkSearchField)}
          data={[
            { value: 'destination', label: 'Destination' },
            { value: 'vanity', label: 'Vanity' },
            { value: 'code', label: 'Code' },
          ]}
        />
        <Select
          label="Sort"
          w={170}
          allowDeselect={false}
          value={sort}
          onChange={(value) => setSort((value ?? 'newest') as Sort)}
          data={[
            { value: 'newest', label: 'Newest first' },
            { value: 'oldest', label: 'Oldest first' },
            { value: 'views', label: 'Most views' },
            { value: 'destination', label: 'Destination' },
          ]}
        />
      </Group>
      {list.error && <Alert color="red">{errorMessage(list.error)}</Alert>}
      <Table.ScrollContainer minWidth={360}>
        <Table striped highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Short link</Table.Th>
              <Table.Th>Destination</Table.Th>
              <Table.Th>Views</Table.Th>
              <Table.Th visibleFrom="sm">Created</Table.Th>
              <Table.Th w={120}>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {links.map((link) => (
              <Table.Tr key={link.id}>
                <Table.Td>
                  <Group gap={6} wrap="nowrap">
                    <Text fw={500} size="sm">
                      {`/go/${link.vanity ?? link.code}`}
                    </Text>
                    {!link.enabled && (
                      <Badge color="gray" variant="light">
                        Disabled
                      </Badge>
                    )}
                    {link.password && (
                      <Badge color="blue" variant="light">
                        Password
                      </Badge>
                    )}
                  </Group>
                </Table.Td>
                <Table.Td maw={320}>
                  <Anchor
                    href={link.destination}
                    target="_blank"
                    rel="noopener noreferrer"
                    size="sm"
                    lineClamp={1}
                  >
                    {link.destination}
                  </Anchor>
                </Table.Td>
                <Table.Td>
                  {link.maxViews === null ? link.views : `${link.views} / ${link.maxViews}`}
                </Table.Td>
                <Table.Td visibleFrom="sm">{formatDate(link.createdAt)}</Table.Td>
                <Table.Td>
                  <RowActions
                    subject={`/go/${link.vanity ?? link.code}`}
                    copy={shortLink(link)}
                    onEdit={() => open(link)}
                    onDelete={() => confirmDelete(link)}
                  />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {list.data?.length === 0 && (
        <Text c="dimmed" ta="center" py="lg">
          {debounced.trim() ? 'No link matches this search.' : 'No short links yet. Shorten one to share it.'}
        </Text>
      )}
      <Modal opened={editing !== null} onClose={() => setEditing(null)} title={title}>
        {editing !== null && (
          <LinkForm
            key={editing === 'new' ? 'new' : editing.id}
            link={editing === 'new' ? undefined : editing}
            pending={saving.isPending}
            error={saving.error}
            onSubmit={save}
            onCancel={() => setEditing(null)}
          />
        )}
      </Modal>
    </Stack>
  );
}
