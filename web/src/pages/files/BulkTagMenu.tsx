import { Button, ColorSwatch, Menu } from '@mantine/core';
import { IconTag } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { BulkChange } from '../../api/folders.ts';
import { tagsQuery } from '../../api/tags.ts';

/**
 * The bulk bar's "Tag" menu: each of the caller's tags, to add to every selected file or to take
 * off them, through one bulk request (`{files, tags: {add | remove}}`).
 */
export function BulkTagMenu({
  pending,
  set,
}: {
  pending: boolean;
  set: (value: BulkChange, done: string) => void;
}) {
  const tags = useQuery(tagsQuery);
  const list = tags.data ?? [];
  const items = (action: 'add' | 'remove') =>
    list.map((tag) => (
      <Menu.Item
        key={`${action}-${tag.id}`}
        leftSection={<ColorSwatch color={tag.color} size={12} />}
        onClick={() =>
          set(
            { tags: { [action]: [tag.id] } },
            action === 'add' ? `tagged ${tag.name}` : `no longer tagged ${tag.name}`,
          )
        }
      >
        {tag.name}
      </Menu.Item>
    ));
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button size="xs" variant="default" leftSection={<IconTag size={14} />} loading={pending}>
          Tag
        </Button>
      </Menu.Target>
      <Menu.Dropdown mah={360} style={{ overflowY: 'auto' }}>
        {list.length === 0 ? (
          <Menu.Label>No tags yet: create one from a file's tag editor</Menu.Label>
        ) : (
          <>
            <Menu.Label>Add tag</Menu.Label>
            {items('add')}
            <Menu.Divider />
            <Menu.Label>Remove tag</Menu.Label>
            {items('remove')}
          </>
        )}
      </Menu.Dropdown>
    </Menu>
  );
}
