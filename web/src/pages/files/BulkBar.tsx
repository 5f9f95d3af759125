import { Button, Group, Paper, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconStar, IconTrash, IconX } from '@tabler/icons-react';
import { errorMessage } from '../../api/client.ts';
import { useFileMutations } from '../../api/files.ts';
import { confirmDelete } from './FileActions.tsx';

/**
 * Actions on every selected file at once. It sticks under the header while the page scrolls, so
 * files picked further down can be acted on without scrolling back.
 */
export function BulkBar({ selected, onDone }: { selected: Set<string>; onDone: () => void }) {
  const { patch, remove } = useFileMutations();
  const ids = [...selected];
  const onError = (error: Error) => notifications.show({ color: 'red', message: errorMessage(error) });
  return (
    <Paper
      withBorder
      shadow="sm"
      p="xs"
      px="sm"
      role="region"
      aria-label="Selected files"
      pos="sticky"
      top="calc(var(--app-shell-header-height, 0px) + var(--mantine-spacing-xs))"
      style={{ zIndex: 3 }}
    >
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Text size="sm" fw={500}>
          {ids.length} selected
        </Text>
        <Group gap="xs">
          <Button
            size="xs"
            variant="default"
            leftSection={<IconStar size={14} />}
            loading={patch.isPending}
            onClick={() => patch.mutate({ ids, change: { favorite: true } }, { onError })}
          >
            Favorite
          </Button>
          <Button
            size="xs"
            color="red"
            leftSection={<IconTrash size={14} />}
            loading={remove.isPending}
            onClick={() =>
              confirmDelete(ids.length, undefined, () =>
                remove.mutate(ids, {
                  onSuccess: () => {
                    notifications.show({ message: `${ids.length} files deleted` });
                    onDone();
                  },
                  onError,
                }),
              )
            }
          >
            Delete selected
          </Button>
          <Button size="xs" variant="subtle" leftSection={<IconX size={14} />} onClick={onDone}>
            Clear selection
          </Button>
        </Group>
      </Group>
    </Paper>
  );
}
