import { ActionIcon, Alert, Button, ColorInput, Group, Stack, Text, TextInput } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconDeviceFloppy, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import { type Tag, tagsQuery, useTagMutations } from '../../api/tags.ts';
import { confirmDestructive } from '../../components/confirm.tsx';

/** The API's colour rule (Zipline's): `#rgb` or `#rrggbb`. */
const COLOR = /^#([0-9A-Fa-f]{6}|[0-9A-Fa-f]{3})$/;
const SWATCHES = ['#e03131', '#f08c00', '#2f9e44', '#1971c2', '#7048e8', '#c2255c', '#495057'];

/** One tag's row: rename and recolour (saved together), or delete after a confirmation. */
function TagRow({ tag }: { tag: Tag }) {
  const { update, remove } = useTagMutations();
  const [name, setName] = useState(tag.name);
  const [color, setColor] = useState(tag.color);
  const changed = name.trim() !== tag.name || color !== tag.color;
  const save = (event: FormEvent) => {
    event.preventDefault();
    if (!changed || !COLOR.test(color)) return;
    update.mutate({ id: tag.id, ...(name.trim() !== tag.name ? { name: name.trim() } : {}), color });
  };
  return (
    <form onSubmit={save} aria-label={`Tag ${tag.name}`}>
      <Group gap="xs" align="flex-start" wrap="nowrap">
        <TextInput
          aria-label={`Name of ${tag.name}`}
          value={name}
          maxLength={64}
          required
          style={{ flex: 1 }}
          onChange={(event) => setName(event.currentTarget.value)}
          error={update.error ? errorMessage(update.error) : undefined}
        />
        <ColorInput
          aria-label={`Colour of ${tag.name}`}
          w={140}
          format="hex"
          swatches={SWATCHES}
          value={color}
          onChange={setColor}
          error={COLOR.test(color) ? undefined : '#rgb or #rrggbb'}
        />
        <ActionIcon
          type="submit"
          size={36}
          variant="default"
          disabled={!changed}
          aria-label={`Save ${tag.name}`}
        >
          <IconDeviceFloppy size={18} />
        </ActionIcon>
        <ActionIcon
          size={36}
          color="red"
          variant="light"
          aria-label={`Delete ${tag.name}`}
          onClick={() =>
            confirmDestructive({
              title: `Delete the tag “${tag.name}”?`,
              message: 'It is taken off every file that has it. The files stay.',
              confirm: 'Delete tag',
              onConfirm: () => remove.mutate(tag.id),
            })
          }
        >
          <IconTrash size={18} />
        </ActionIcon>
      </Group>
    </form>
  );
}

/** The tag editor: every tag of the user, and a new one. */
function TagManager() {
  const tags = useQuery(tagsQuery);
  const { create } = useTagMutations();
  const [name, setName] = useState('');
  const [color, setColor] = useState(SWATCHES[3] as string);
  const add = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim() || !COLOR.test(color)) return;
    create.mutate({ name: name.trim(), color }, { onSuccess: () => setName('') });
  };
  return (
    <Stack>
      <form onSubmit={add} aria-label="New tag">
        <Group gap="xs" align="flex-end" wrap="nowrap">
          <TextInput
            label="New tag"
            placeholder="Name"
            value={name}
            maxLength={64}
            style={{ flex: 1 }}
            onChange={(event) => setName(event.currentTarget.value)}
          />
          <ColorInput
            label="Colour"
            w={140}
            format="hex"
            swatches={SWATCHES}
            value={color}
            onChange={setColor}
          />
          <Button type="submit" loading={create.isPending}>
            Add
          </Button>
        </Group>
      </form>
      {create.error && (
        <Alert color="red" role="alert">
          {errorMessage(create.error)}
        </Alert>
      )}
      {tags.data?.length === 0 && <Text c="dimmed">No tags yet.</Text>}
      {tags.data?.map((tag) => (
        <TagRow key={`${tag.id}:${tag.updatedAt}`} tag={tag} />
      ))}
    </Stack>
  );
}

export function openTagManager() {
  modals.open({ title: 'Tags', size: 'lg', children: <TagManager /> });
}
