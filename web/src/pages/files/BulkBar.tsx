import { Button, Group, Menu, Paper, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconFolder, IconStar, IconStarOff, IconTrash, IconX } from '@tabler/icons-react';
import { errorMessage } from '../../api/client.ts';
import { type BulkChange, type BulkResult, useBulkMutations, useFolders } from '../../api/folders.ts';
import { BulkTagMenu } from './BulkTagMenu.tsx';
import { confirmDelete } from './FileActions.tsx';

/** What a bulk answer says: how many changed, and how many could not (deleted meanwhile). */
function report(done: string, result: BulkResult) {
  const skipped = result.missing.length + result.failed.length;
  const files = `${result.count} file${result.count === 1 ? '' : 's'}`;
  notifications.show({
    color: skipped ? 'yellow' : undefined,
    message: `${files} ${done}${skipped ? `; ${skipped} could not be changed (deleted meanwhile, a folder or tag gone, or past 20 tags)` : ''}`,
  });
}

/**
 * Actions on every selected file at once, each through one bulk request (up to 1,000 files). It
 * sticks under the header while the page scrolls, so files picked further down can be acted on
 * without scrolling back.
 */
export function BulkBar({ selected, onDone }: { selected: Set<string>; onDone: () => void }) {
  const { change, remove } = useBulkMutations();
  const folders = useFolders();
  const ids = [...selected];
  const onError = (error: Error) => notifications.show({ color: 'red', message: errorMessage(error) });
  const set = (value: BulkChange, done: string) =>
    change.mutate({ ids, set: value }, { onSuccess: (result) => report(done, result), onError });
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
            loading={change.isPending}
            onClick={() => set({ favorite: true }, 'added to favorites')}
          >
            Favorite
          </Button>
          <Button
            size="xs"
            variant="default"
            leftSection={<IconStarOff size={14} />}
            loading={change.isPending}
            onClick={() => set({ favorite: false }, 'removed from favorites')}
          >
            Unfavorite
          </Button>
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <Button
                size="xs"
                variant="default"
                leftSection={<IconFolder size={14} />}
                loading={change.isPending}
              >
                Move to folder
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              {(folders.data ?? []).map((folder) => (
                <Menu.Item
                  key={folder.id}
                  onClick={() => set({ folder: folder.id }, `moved to ${folder.name}`)}
                >
                  {folder.name}
                </Menu.Item>
              ))}
              {folders.data?.length === 0 && (
                <Menu.Label>No folders yet: create one on the Folders page</Menu.Label>
              )}
              <Menu.Divider />
              <Menu.Item onClick={() => set({ folder: null }, 'taken out of their folders')}>
                No folder
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
          <BulkTagMenu pending={change.isPending} set={set} />
          <Button
            size="xs"
            color="red"
            leftSection={<IconTrash size={14} />}
            loading={remove.isPending}
            onClick={() =>
              confirmDelete(ids.length, undefined, () =>
                remove.mutate(ids, {
                  onSuccess: (result) => {
                    report('deleted', result);
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
