import { Alert, Button, Group, NumberInput, Stack, TextInput } from '@mantine/core';
import { modals } from '@mantine/modals';
import { type FormEvent, useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import { type FilePatch, useFileMutations } from '../../api/files.ts';
import { fromLocalInput, toLocalInput } from '../../api/format.ts';
import type { FileResource } from '../../api/types.ts';

function EditFileForm({ file, onClose }: { file: FileResource; onClose: () => void }) {
  const { patch } = useFileMutations();
  const [originalName, setOriginalName] = useState(file.originalName);
  const [maxViews, setMaxViews] = useState<string | number>(file.maxViews ?? '');
  const [deletesAt, setDeletesAt] = useState(toLocalInput(file.deletesAt));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const change: FilePatch = {};
    if (originalName.trim() !== file.originalName) change.originalName = originalName.trim();
    const views = maxViews === '' ? null : Number(maxViews);
    if (views !== file.maxViews) change.maxViews = views;
    const expiry = fromLocalInput(deletesAt);
    if (expiry !== (file.deletesAt ? fromLocalInput(toLocalInput(file.deletesAt)) : null))
      change.deletesAt = expiry;
    if (Object.keys(change).length === 0) return onClose();
    patch.mutate({ ids: [file.id], change }, { onSuccess: onClose });
  };

  return (
    <form onSubmit={submit}>
      <Stack>
        {patch.error && (
          <Alert color="red" role="alert">
            {errorMessage(patch.error)}
          </Alert>
        )}
        <TextInput
          label="Name"
          description="The uploaded file name; only you see it."
          required
          value={originalName}
          onChange={(event) => setOriginalName(event.currentTarget.value)}
        />
        <NumberInput
          label="Max views"
          description={`Viewed ${file.views} times. Empty: no limit.`}
          min={1}
          allowDecimal={false}
          value={maxViews}
          onChange={setMaxViews}
        />
        <TextInput
          type="datetime-local"
          label="Expires"
          description="Empty: never."
          value={deletesAt}
          onChange={(event) => setDeletesAt(event.currentTarget.value)}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={patch.isPending}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export function openEditFile(file: FileResource) {
  const id = modals.open({
    title: `Edit ${file.originalName}`,
    children: <EditFileForm file={file} onClose={() => modals.close(id)} />,
  });
}
