import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { ReactNode } from 'react';

/**
 * Asks before anything is deleted or removed (files, passkeys, the avatar, users, links, the API token): every such action
 * in the dashboard goes through a dialog whose red button names what it does.
 */
export function confirmDestructive(options: {
  title: string;
  message: ReactNode;
  confirm: string;
  onConfirm: () => void;
}) {
  modals.openConfirmModal({
    title: options.title,
    children: <Text size="sm">{options.message}</Text>,
    labels: { confirm: options.confirm, cancel: 'Cancel' },
    confirmProps: { color: 'red' },
    onConfirm: options.onConfirm,
  });
}
