import {
  Box,
  Button,
  ColorInput,
  Group,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type FormEvent, useState } from 'react';
import { useAccountUpdate, viewFlag, viewText } from '../../api/account.ts';
import { errorMessage } from '../../api/client.ts';
import type { ViewSettings } from '../../api/types.ts';
import { Section } from './Section.tsx';

const TEXT_KEYS = [
  'content',
  'embedTitle',
  'embedDescription',
  'embedColor',
  'embedSiteName',
  'align',
] as const;
const FLAG_KEYS = ['enabled', 'showMimetype', 'remoteImages', 'embed', 'allowIndexing'] as const;
type Form = Record<(typeof TEXT_KEYS)[number], string> & Record<(typeof FLAG_KEYS)[number], boolean>;

/** The placeholders a preview fills in, with an example file. */
function fill(text: string, username: string) {
  return text
    .replaceAll('{file.name}', 'a1b2c3d4.png')
    .replaceAll('{file.originalName}', 'holiday.png')
    .replaceAll('{file.type}', 'image/png')
    .replaceAll('{file.size}', '1.2 MB')
    .replaceAll('{user.username}', username);
}

/** How a chat app shows a shared link with these embed settings. */
function EmbedPreview({ form, username }: { form: Form; username: string }) {
  return (
    <Paper withBorder p="md" radius="md" aria-label="Preview" component="figure" m={0}>
      <Text size="xs" c="dimmed" mb="xs" component="figcaption">
        Preview: a link to one of your files, shared in a chat
      </Text>
      {form.embed ? (
        <Box
          p="sm"
          style={{
            borderLeft: `4px solid ${form.embedColor || 'var(--mantine-color-gray-5)'}`,
            borderRadius: 4,
            background: 'var(--mantine-color-default-hover)',
          }}
        >
          {form.embedSiteName && (
            <Text size="xs" c="dimmed">
              {fill(form.embedSiteName, username)}
            </Text>
          )}
          <Text fw={700} c="var(--mantine-color-anchor)" size="sm">
            {fill(form.embedTitle || 'holiday.png', username)}
          </Text>
          {form.embedDescription && <Text size="sm">{fill(form.embedDescription, username)}</Text>}
          <Box mt="xs" h={90} w={160} bg="blue.1" style={{ borderRadius: 4 }} aria-hidden />
        </Box>
      ) : (
        <Text size="sm" c="dimmed">
          Embeds are off: chat apps show the bare link (images still preview themselves).
        </Text>
      )}
      {form.enabled && (
        <Box mt="md" ta={form.align as 'left' | 'center' | 'right'}>
          <Text size="xs" c="dimmed" ta="left">
            The file's page
          </Text>
          {form.content && <Text size="sm">{fill(form.content, username)}</Text>}
          {form.showMimetype && (
            <Text size="xs" c="dimmed">
              image/png
            </Text>
          )}
        </Box>
      )}
    </Paper>
  );
}

export function ViewTab({ view, username }: { view: ViewSettings; username: string }) {
  const update = useAccountUpdate();
  const [form, setForm] = useState<Form>(() => ({
    ...(Object.fromEntries(TEXT_KEYS.map((key) => [key, viewText(view, key)])) as Record<
      (typeof TEXT_KEYS)[number],
      string
    >),
    ...(Object.fromEntries(FLAG_KEYS.map((key) => [key, viewFlag(view, key)])) as Record<
      (typeof FLAG_KEYS)[number],
      boolean
    >),
    align: viewText(view, 'align') || 'left',
  }));
  const set = <K extends keyof Form>(key: K, value: Form[K]) =>
    setForm((current) => ({ ...current, [key]: value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // Empty texts are cleared (null), not stored as empty strings.
    const change = Object.fromEntries(
      Object.entries(form).map(([key, value]) => [key, value === '' ? null : value]),
    );
    update.mutate(
      { view: change },
      { onSuccess: () => notifications.show({ color: 'teal', message: 'Link and embed settings saved' }) },
    );
  };

  return (
    <form onSubmit={submit}>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Stack>
          <Section title="File page" intro="A page around each file instead of the bare bytes.">
            <Stack>
              <Switch
                label="Show files on their own page"
                checked={form.enabled}
                onChange={(e) => set('enabled', e.currentTarget.checked)}
              />
              <Switch
                label="Show the file type"
                checked={form.showMimetype}
                onChange={(e) => set('showMimetype', e.currentTarget.checked)}
              />
              <Switch
                label="Let search engines index the pages"
                checked={form.allowIndexing}
                onChange={(e) => set('allowIndexing', e.currentTarget.checked)}
              />
              <Switch
                label="Load remote images in Markdown"
                description="Off: images from other sites show as links (their hosts would see who reads your pages)."
                checked={form.remoteImages}
                onChange={(e) => set('remoteImages', e.currentTarget.checked)}
              />
              <Stack gap={4}>
                <Text size="sm" fw={500} id="align-label">
                  Alignment
                </Text>
                <SegmentedControl
                  aria-labelledby="align-label"
                  value={form.align}
                  onChange={(value) => set('align', value)}
                  data={[
                    { value: 'left', label: 'Left' },
                    { value: 'center', label: 'Center' },
                    { value: 'right', label: 'Right' },
                  ]}
                />
              </Stack>
              <Textarea
                label="Text on the page"
                description="Placeholders: {file.name}, {file.originalName}, {file.size}, {file.type}, {user.username}"
                autosize
                minRows={2}
                maxLength={2000}
                value={form.content}
                onChange={(e) => set('content', e.currentTarget.value)}
              />
            </Stack>
          </Section>
          <Section title="Link embed" intro="What Discord, Slack and others show for your links.">
            <Stack>
              <Switch
                label="Add an embed to links"
                checked={form.embed}
                onChange={(e) => set('embed', e.currentTarget.checked)}
              />
              <TextInput
                label="Title"
                maxLength={2000}
                value={form.embedTitle}
                onChange={(e) => set('embedTitle', e.currentTarget.value)}
              />
              <Textarea
                label="Description"
                autosize
                minRows={2}
                maxLength={2000}
                value={form.embedDescription}
                onChange={(e) => set('embedDescription', e.currentTarget.value)}
              />
              <TextInput
                label="Site name"
                maxLength={2000}
                value={form.embedSiteName}
                onChange={(e) => set('embedSiteName', e.currentTarget.value)}
              />
              <ColorInput
                label="Color"
                format="hex"
                value={form.embedColor}
                onChange={(value) => set('embedColor', value)}
              />
            </Stack>
          </Section>
        </Stack>
        <Stack>
          <EmbedPreview form={form} username={username} />
          {update.error && (
            <Text c="red" size="sm" role="alert">
              {errorMessage(update.error)}
            </Text>
          )}
          <Group>
            <Button type="submit" loading={update.isPending}>
              Save link settings
            </Button>
          </Group>
        </Stack>
      </SimpleGrid>
    </form>
  );
}
