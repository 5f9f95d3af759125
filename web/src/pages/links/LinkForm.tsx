import { Alert, Button, Checkbox, Group, NumberInput, PasswordInput, Stack, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import type { LinkInput, LinkResource } from '../../api/links.ts';

interface Props {
  link?: LinkResource;
  pending: boolean;
  error: Error | null;
  onSubmit: (input: LinkInput) => void;
  onCancel: () => void;
}

/** Create (no `link`) or edit a short link: destination, vanity, view limit, password, enabled. */
export function LinkForm({ link, pending, error, onSubmit, onCancel }: Props) {
  const [destination, setDestination] = useState(link?.destination ?? '');
  const [vanity, setVanity] = useState(link?.vanity ?? '');
  const [maxViews, setMaxViews] = useState<string | number>(link?.maxViews ?? '');
  const [enabled, setEnabled] = useState(link?.enabled ?? true);
  const [password, setPassword] = useState('');
  const [removePassword, setRemovePassword] = useState(false);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const input: LinkInput = {
      destination: destination.trim(),
      vanity: vanity.trim() || null,
      maxViews: maxViews === '' ? null : Number(maxViews),
      enabled,
    };
    if (password) input.password = password;
    else if (removePassword) input.password = null;
    onSubmit(input);
  };

  return (
    <form onSubmit={submit}>
      <Stack>
        <TextInput
          label="Destination"
          description="An http or https address"
          placeholder="https://example.com/a/long/page"
          required
          type="url"
          value={destination}
          onChange={(e) => setDestination(e.currentTarget.value)}
          data-autofocus
        />
        <TextInput
          label="Vanity name"
          description="Optional: letters, digits, . _ ~ - (case is ignored)"
          value={vanity}
          onChange={(e) => setVanity(e.currentTarget.value)}
        />
        <NumberInput
          label="Max views"
          description="Empty: no limit"
          min={link ? 0 : 1}
          allowDecimal={false}
          value={maxViews}
          onChange={setMaxViews}
        />
        <PasswordInput
          label={link?.password ? 'New password' : 'Password'}
          description={link?.password ? 'Empty: keep the current one' : 'Optional: visitors must enter it'}
          autoComplete="new-password"
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
        />
        {link?.password && (
          <Checkbox
            label="Remove the password"
            checked={removePassword}
            disabled={password !== ''}
            onChange={(e) => setRemovePassword(e.currentTarget.checked)}
          />
        )}
        <Checkbox label="Enabled" checked={enabled} onChange={(e) => setEnabled(e.currentTarget.checked)} />
        {error && (
          <Alert color="red" role="alert">
            {errorMessage(error)}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={pending}>
            {link ? 'Save' : 'Shorten'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
