import { ActionIcon, Menu } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  IconCopy,
  IconDots,
  IconEdit,
  IconExternalLink,
  IconStar,
  IconStarFilled,
  IconTrash,
} from '@tabler/icons-react';
import { errorMessage } from '../../api/client.ts';
import { useFileMutations } from '../../api/files.ts';
import { absoluteUrl, ownerRawUrl } from '../../api/format.ts';
import type { FileResource } from '../../api/types.ts';
import { confirmDestructive } from '../../components/confirm.tsx';
import { openEditFile } from './EditFile.tsx';

export async function copyLink(file: FileResource) {
  try {
    await navigator.clipboard.writeText(absoluteUrl(file.url));
    notifications.show({ message: `Link to ${file.originalName} copied`, color: 'teal' });
  } catch {
    notifications.show({ message: 'The clipboard is not available here', color: 'red' });
  }
}

export function FavoriteButton({ file }: { file: FileResource }) {
  const { patch } = useFileMutations();
  const label = file.favorite
    ? `Remove ${file.originalName} from favorites`
    : `Add ${file.originalName} to favorites`;
  return (
    <ActionIcon
      variant="subtle"
      color="yellow.7"
      aria-label={label}
      aria-pressed={file.favorite}
      onClick={() => patch.mutate({ ids: [file.id], change: { favorite: !file.favorite } })}
    >
      {file.favorite ? <IconStarFilled size={18} /> : <IconStar size={18} />}
    </ActionIcon>
  );
}

/** Asks before deleting `count` files (named when it is one). */
export function confirmDelete(count: number, name: string | undefined, onConfirm: () => void) {
  const what = name ? `“${name}”` : count === 1 ? 'The file' : `${count} files`;
  confirmDestructive({
    title: count === 1 ? 'Delete this file?' : `Delete ${count} files?`,
    message: `${what} will be deleted for good, and ${count === 1 ? 'its link stops' : 'their links stop'} working. This cannot be undone.`,
    confirm: 'Delete',
    onConfirm,
  });
}

/** Everything one can do to one file, in one menu. */
export function FileActions({ file }: { file: FileResource }) {
  const { patch, remove } = useFileMutations();
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${file.originalName}`}>
          <IconDots size={18} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item
          component="a"
          href={ownerRawUrl(file.id)}
          target="_blank"
          rel="noopener"
          leftSection={<IconExternalLink size={16} />}
        >
          Open
        </Menu.Item>
        <Menu.Item leftSection={<IconCopy size={16} />} onClick={() => copyLink(file)}>
          Copy link
        </Menu.Item>
        <Menu.Item
          leftSection={file.favorite ? <IconStarFilled size={16} /> : <IconStar size={16} />}
          onClick={() => patch.mutate({ ids: [file.id], change: { favorite: !file.favorite } })}
        >
          {file.favorite ? 'Unfavorite' : 'Favorite'}
        </Menu.Item>
        <Menu.Item leftSection={<IconEdit size={16} />} onClick={() => openEditFile(file)}>
          Edit details
        </Menu.Item>
        <Menu.Divider />
        <Menu.Item
          color="red"
          leftSection={<IconTrash size={16} />}
          onClick={() =>
            confirmDelete(1, file.originalName, () =>
              remove.mutate([file.id], {
                onSuccess: () => notifications.show({ message: `${file.originalName} deleted` }),
                onError: (error) => notifications.show({ color: 'red', message: errorMessage(error) }),
              }),
            )
          }
        >
          Delete
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
