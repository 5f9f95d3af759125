import { NumberInput, Paper, PasswordInput, Select, SimpleGrid, Switch, TextInput } from '@mantine/core';
import { useState } from 'react';
import { pastExpiryError } from '../api/files.ts';
import { useFolders } from '../api/folders.ts';
import { fromLocalInput } from '../api/format.ts';
import type { UploadOptions } from '../api/upload.ts';

const CUSTOM = 'custom';
const EXPIRY = [
  { value: '', label: 'Never' },
  { value: '1h', label: 'In 1 hour' },
  { value: '1d', label: 'In 1 day' },
  { value: '7d', label: 'In 7 days' },
  { value: '30d', label: 'In 30 days' },
  { value: '1y', label: 'In 1 year' },
  { value: CUSTOM, label: 'At a date…' },
];
const FORMATS = [
  { value: 'random', label: 'Random (a1b2c3d4.png)' },
  { value: 'date', label: 'Date (20261122-2104…)' },
  { value: 'uuid', label: 'UUID' },
  { value: 'name', label: 'Original file name' },
];

/**
 * The password travels in a header (`x-zipline-password`), which carries printable ASCII safely;
 * other characters can be set afterwards in "Edit details" (a JSON body).
 */
const HEADER_SAFE = /^[\x20-\x7e]*$/;
const PASSWORD_MAX = 72;

interface Form {
  expiry: string;
  /** The `datetime-local` value when `expiry` is a date. */
  date: string;
  maxViews: number | null;
  format: string;
  keepOriginalName: boolean;
  password: string;
  /** A folder's id, or empty: none. */
  folder: string;
}

/**
 * The upload options and their check: `resolve()` gives the options to send, or null (the fields say
 * why) when the date has passed or the password cannot be sent.
 */
export function useUploadOptions() {
  const [form, setForm] = useState<Form>({
    expiry: '',
    date: '',
    maxViews: null,
    format: 'random',
    keepOriginalName: false,
    password: '',
    folder: '',
  });
  const folders = useFolders();
  const [errors, setErrors] = useState<{ date?: string; password?: string }>({});
  const change = (update: Partial<Form>) => {
    setForm((current) => ({ ...current, ...update }));
    setErrors({});
  };

  const resolve = (): UploadOptions | null => {
    const found: typeof errors = {};
    let expiresIn = form.expiry;
    if (form.expiry === CUSTOM) {
      const iso = fromLocalInput(form.date);
      const refusal = iso === null ? 'Choose the date and time' : pastExpiryError(iso);
      if (refusal) found.date = refusal;
      expiresIn = `date=${iso}`;
    }
    if (!HEADER_SAFE.test(form.password))
      found.password =
        'Use letters, digits and symbols of a US keyboard here; others can be set in Edit details';
    else if (form.password.length > PASSWORD_MAX) found.password = `At most ${PASSWORD_MAX} characters`;
    setErrors(found);
    if (found.date || found.password) return null;
    const { maxViews, format, keepOriginalName, password, folder } = form;
    return { expiresIn, maxViews, format, keepOriginalName, password, folder };
  };

  const panel = (
    <Paper withBorder p="md">
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <Select
          label="Expires"
          data={EXPIRY}
          value={form.expiry}
          allowDeselect={false}
          onChange={(value) => change({ expiry: value ?? '' })}
        />
        {form.expiry === CUSTOM && (
          <TextInput
            type="datetime-local"
            label="Expiry date"
            description="The files are deleted at this time"
            value={form.date}
            error={errors.date}
            onChange={(event) => change({ date: event.currentTarget.value })}
          />
        )}
        <NumberInput
          label="Max views"
          description="Empty: no limit"
          min={1}
          allowDecimal={false}
          value={form.maxViews ?? ''}
          onChange={(value) => change({ maxViews: value === '' ? null : Number(value) })}
        />
        <PasswordInput
          label="Password"
          description="Empty: anyone with the link opens the files"
          autoComplete="new-password"
          value={form.password}
          error={errors.password}
          onChange={(event) => change({ password: event.currentTarget.value })}
        />
        <Select
          label="Link name"
          data={FORMATS}
          value={form.format}
          allowDeselect={false}
          onChange={(value) => change({ format: value ?? 'random' })}
        />
        <Select
          label="Folder"
          data={[
            { value: '', label: 'No folder' },
            ...(folders.data ?? []).map((folder) => ({ value: folder.id, label: folder.name })),
          ]}
          value={form.folder}
          allowDeselect={false}
          onChange={(value) => change({ folder: value ?? '' })}
        />
        <Switch
          label="Downloads keep the original file name"
          checked={form.keepOriginalName}
          onChange={(event) => change({ keepOriginalName: event.currentTarget.checked })}
          // Beside a field (a date was chosen), level with its input; else on a row of its own.
          mt={{ sm: form.expiry === CUSTOM ? 30 : 0 }}
        />
      </SimpleGrid>
    </Paper>
  );
  return { panel, resolve };
}
