import { Button, Group, Modal, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import {
  IconCopy,
  IconEdit,
  IconExternalLink,
  IconStar,
  IconStarFilled,
  IconTrash,
} from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { errorMessage } from '../../api/client.ts';
import { fileQuery, useFileMutations } from '../../api/files.ts';
import { absoluteUrl, formatBytes, formatDate, ownerRawUrl } from '../../api/format.ts';
import type { FileResource } from '../../api/types.ts';
import { openEditFile } from './EditFile.tsx';
import { confirmDelete, copyLink } from './FileActions.tsx';
import { FileBadges } from './FileBadges.tsx';
import { FileDetailPreview } from './FileDetailPreview.tsx';

function Details({ file }: { file: FileResource }) {
  const rows: [string, ReactNode][] = [
    [
      'Link',
      <Text key="link" size="sm" style={{ wordBreak: 'break-all' }}>
        {absoluteUrl(file.url)}
      </Text>,
    ],
    ['Public name', file.name],
    ['Type', file.type],
    ['Size', formatBytes(file.size)],
    ['Uploaded', formatDate(file.createdAt)],
    ['Views', file.maxViews === null ? `${file.views}` : `${file.views} of ${file.maxViews}`],
    ['Expires', file.deletesAt ? formatDate(file.deletesAt) : 'Never'],
    ['Password', file.password ? 'Set: the link asks for it' : 'None'],
  ];
  return (
    <Table variant="vertical" layout="fixed" withTableBorder>
      <Table.Tbody>
        {rows.map(([label, value]) => (
          <Table.Tr key={label}>
            <Table.Th w={120}>{label}</Table.Th>
            <Table.Td style={{ overflowWrap: 'anywhere' }}>{value}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/**
 * A file's detail view: its preview (image, video, audio, text), what is known of it and what can be
 * done with it. It reads the file again, so an edit made from here shows at once.
 */
export function FileDetail({ initial, onClose }: { initial: FileResource; onClose: () => void }) {
  const phone = useMediaQuery('(max-width: 48em)', false, { getInitialValueInEffect: false });
  const { data } = useQuery({ ...fileQuery(initial.id), placeholderData: initial });
  const file = data ?? initial;
  const { patch, remove } = useFileMutations();
  const deleteAfterAsking = () =>
    confirmDelete(1, file.originalName, () =>
      remove.mutate([file.id], {
        onSuccess: () => {
          notifications.show({ message: `${file.originalName} deleted` });
          onClose();
        },
        onError: (error) => notifications.show({ color: 'red', message: errorMessage(error) }),
      }),
    );
  return (
    <Modal opened onClose={onClose} title={file.originalName} size="70rem" fullScreen={phone}>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <FileDetailPreview file={file} />
        <Stack gap="sm">
          <FileBadges file={file} />
          <Details file={file} />
          <Group gap="xs">
            <Button
              component="a"
              href={ownerRawUrl(file.id)}
              target="_blank"
              rel="noopener"
              variant="default"
              leftSection={<IconExternalLink size={16} />}
            >
              Open
            </Button>
            <Button variant="default" leftSection={<IconCopy size={16} />} onClick={() => copyLink(file)}>
              Copy link
            </Button>
            <Button
              variant="default"
              leftSection={file.favorite ? <IconStarFilled size={16} /> : <IconStar size={16} />}
              aria-pressed={file.favorite}
              onClick={() => patch.mutate({ ids: [file.id], change: { favorite: !file.favorite } })}
            >
              Favorite
            </Button>
            <Button variant="default" leftSection={<IconEdit size={16} />} onClick={() => openEditFile(file)}>
              Edit details
            </Button>
            <Button
              color="red"
              leftSection={<IconTrash size={16} />}
              onClick={deleteAfterAsking}
              loading={remove.isPending}
            >
              Delete
            </Button>
          </Group>
        </Stack>
      </SimpleGrid>
    </Modal>
  );
}
