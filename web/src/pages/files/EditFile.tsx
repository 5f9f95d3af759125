import {
  Alert,
  Button,
  Checkbox,
  Group,
  MultiSelect,
  NumberInput,
  PasswordInput,
  Stack,
  TextInput,
} from '@mantine/core';
import { modals } from '@mantine/modals';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import { type FilePatch, pastExpiryError, useFileMutations } from '../../api/files.ts';
import { fromLocalInput, toLocalInput } from '../../api/format.ts';
import { tagsQuery } from '../../api/tags.ts';
import type { FileResource } from '../../api/types.ts';

/** The API's bound on a file password (bcrypt reads 72 bytes). */
const PASSWORD_MAX_BYTES = 72;
const byteLength = (text: string) => new TextEncoder().encode(text).length;

function EditFileForm({ file, onClose }: { file: FileResource; onClose: () => void }) {
  const { patch } = useFileMutations();
  const [originalName, setOriginalName] = useState(file.originalName);
  const [maxViews, setMaxViews] = useState<string | number>(file.maxViews ?? '');
  const [deletesAt, setDeletesAt] = useState(toLocalInput(file.deletesAt));
  const [password, setPassword] = useState('');
  const [removePassword, setRemovePassword] = useState(false);
  const allTags = useQuery(tagsQuery);
  const [tags, setTags] = useState(file.tags.map((tag) => tag.id));
  const [expiryError, setExpiryError] = useState<string | null>(null);
  const passwordError =
    byteLength(password) > PASSWORD_MAX_BYTES ? `At most ${PASSWORD_MAX_BYTES} bytes` : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const change: FilePatch = {};
    if (originalName.trim() !== file.originalName) change.originalName = originalName.trim();
    const views = maxViews === '' ? null : Number(maxViews);
    if (views !== file.maxViews) change.maxViews = views;
    const expiry = fromLocalInput(deletesAt);
    if (expiry !== (file.deletesAt ? fromLocalInput(toLocalInput(file.deletesAt)) : null)) {
      // Refused here as the API refuses it: a past expiry would delete the file without a word.
      const refusal = pastExpiryError(expiry);
      setExpiryError(refusal);
      if (refusal) return;
      change.deletesAt = expiry;
    }
    if (passwordError) return;
    if (
      [...tags].sort().join() !==
      file.tags
        .map((tag) => tag.id)
        .sort()
        .join()
    )
      change.tags = tags;
    if (removePassword) change.password = null;
    else if (password) change.password = password;
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
        <MultiSelect
          label="Tags"
          description="At most 20. New tags: Tags on the files page."
          placeholder={tags.length === 0 ? 'No tags' : undefined}
          data={(allTags.data ?? []).map((tag) => ({ value: tag.id, label: tag.name }))}
          value={tags}
          onChange={setTags}
          maxValues={20}
          searchable
          clearable
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
          description="The file is deleted at this time. Empty: never."
          value={deletesAt}
          error={expiryError}
          onChange={(event) => {
            setDeletesAt(event.currentTarget.value);
            setExpiryError(null);
          }}
        />
        <PasswordInput
          label={file.password ? 'New password' : 'Password'}
          description={
            file.password
              ? 'The link asks for a password. Type a new one to replace it.'
              : 'Empty: anyone with the link opens the file.'
          }
          autoComplete="new-password"
          disabled={removePassword}
          value={password}
          error={passwordError}
          onChange={(event) => setPassword(event.currentTarget.value)}
        />
        {file.password && (
          <Checkbox
            label="Remove the password"
            checked={removePassword}
            onChange={(event) => setRemovePassword(event.currentTarget.checked)}
          />
        )}
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
