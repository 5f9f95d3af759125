import {
  Alert,
  Button,
  Group,
  NumberInput,
  Select,
  Stack,
  Switch,
  TagsInput,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { api, errorMessage } from '../../api/client.ts';
import type { ServerSettings } from '../../api/server.ts';
import { Section } from '../settings/Section.tsx';
import { WebhookSettings } from './WebhookSettings.tsx';

const FORMATS = ['random', 'uuid', 'date', 'name', 'gfycat', 'random-words'];

interface SettingsAnswer {
  settings: ServerSettings;
  version: number;
}

/** The fields whose value differs from what the server has: a PATCH sends only these. */
function changesOf(saved: ServerSettings, edited: ServerSettings): Partial<ServerSettings> {
  const changes: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(edited)) {
    if (JSON.stringify(value) !== JSON.stringify(saved[name as keyof ServerSettings])) changes[name] = value;
  }
  return changes as Partial<ServerSettings>;
}

/**
 * The instance's run-time settings (SUPERADMIN, issue 38): sections, one Save; the API's message
 * (naming the setting) shown when it refuses one, and nothing saved then.
 */
export default function ServerSettingsPage() {
  const queryClient = useQueryClient();
  const current = useQuery({
    queryKey: ['server-settings'],
    queryFn: () => api<SettingsAnswer>('/api/server/settings'),
  });
  const [edited, setEdited] = useState<ServerSettings | null>(null);
  useEffect(() => {
    if (current.data) setEdited(current.data.settings);
  }, [current.data]);
  const save = useMutation({
    mutationFn: (changes: Partial<ServerSettings>) =>
      api<SettingsAnswer>('/api/server/settings', { method: 'PATCH', json: changes }),
    onSuccess: (answer) => {
      queryClient.setQueryData(['server-settings'], answer);
      void queryClient.invalidateQueries({ queryKey: ['server-public'] });
      notifications.show({ color: 'green', message: 'Server settings saved' });
    },
  });

  if (current.error) return <Alert color="red">{errorMessage(current.error)}</Alert>;
  if (!edited || !current.data) return null;
  const set = <K extends keyof ServerSettings>(name: K, value: ServerSettings[K]) =>
    setEdited({ ...edited, [name]: value });
  const changes = changesOf(current.data.settings, edited);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(changes);
  };

  return (
    <form onSubmit={submit}>
      <Stack maw={760}>
        <Group justify="space-between">
          <Title order={1} size="h2">
            Server settings
          </Title>
          <Button type="submit" loading={save.isPending} disabled={Object.keys(changes).length === 0}>
            Save
          </Button>
        </Group>
        {save.error && (
          <Alert color="red" title="Not saved" role="alert">
            {errorMessage(save.error)}
          </Alert>
        )}
        <Section title="Site" intro="Shown in the title bar, the browser tab and the sign-in page.">
          <Stack>
            <TextInput
              label="Site title"
              value={edited.websiteTitle}
              onChange={(event) => set('websiteTitle', event.currentTarget.value)}
            />
            <Textarea
              label="Sign-in page text"
              description="Under the sign-in form: a notice, terms, who to ask for an account"
              autosize
              minRows={2}
              value={edited.websiteLoginText}
              onChange={(event) => set('websiteLoginText', event.currentTarget.value)}
            />
            <TagsInput
              label="Domains"
              description="Host names offered for returned URLs"
              value={edited.domains}
              onChange={(value) => set('domains', value)}
            />
          </Stack>
        </Section>
        <Section title="Registration and invites">
          <Stack>
            <Switch
              label="Anyone may create an account"
              checked={edited.featuresUserRegistration}
              onChange={(event) => set('featuresUserRegistration', event.currentTarget.checked)}
            />
            <Switch
              label="Invites: administrators may invite people, and an invite opens registration"
              checked={edited.invitesEnabled}
              onChange={(event) => set('invitesEnabled', event.currentTarget.checked)}
            />
            <NumberInput
              label="Invite code length"
              min={6}
              max={64}
              value={edited.invitesLength}
              onChange={(value) => set('invitesLength', Number(value))}
            />
          </Stack>
        </Section>
        <Section title="Uploads" intro="Applied by every upload within 10 seconds of saving.">
          <Stack>
            <TextInput
              label="Largest file"
              description='A size such as "100mb"; empty: no limit but S3&apos;s'
              value={edited.filesMaxFileSize ?? ''}
              onChange={(event) => set('filesMaxFileSize', event.currentTarget.value.trim() || null)}
            />
            <TagsInput
              label="Blocked extensions"
              description="Such as exe, bat"
              value={edited.filesDisabledExtensions}
              onChange={(value) => set('filesDisabledExtensions', value)}
            />
            <TagsInput
              label="Blocked types"
              description="Such as application/x-msdownload, or video/* for a family"
              value={edited.filesDisabledTypes}
              onChange={(value) => set('filesDisabledTypes', value)}
            />
            <Select
              label="Default name format"
              data={FORMATS}
              allowDeselect={false}
              value={edited.filesDefaultFormat}
              onChange={(value) => set('filesDefaultFormat', value ?? 'random')}
            />
            <TextInput
              label="Default expiry"
              description='A lifetime such as "7d" or "2 weeks"; empty: files are kept'
              value={edited.filesDefaultExpiration ?? ''}
              onChange={(event) => set('filesDefaultExpiration', event.currentTarget.value.trim() || null)}
            />
            <Switch
              label="Remove location (GPS) and other metadata from uploaded photos"
              checked={edited.filesRemoveGpsMetadata}
              onChange={(event) => set('filesRemoveGpsMetadata', event.currentTarget.checked)}
            />
          </Stack>
        </Section>
        <WebhookSettings edited={edited} set={set} />
      </Stack>
    </form>
  );
}
