import { PasswordInput, Stack, Textarea, TextInput } from '@mantine/core';
import type { ServerSettings } from '../../api/server.ts';
import { Section } from '../settings/Section.tsx';

type Setter = <K extends keyof ServerSettings>(name: K, value: ServerSettings[K]) => void;

/** Empty input: the setting unset (null). */
const orNull = (value: string) => value.trim() || null;

/**
 * The webhook targets (docs/webhooks.md): Discord's URL, name and texts, the signed HTTP webhook's
 * URLs and secret (shown masked once set; left as is, it stays). Per-event Discord URLs, avatars and
 * embeds are set through the API.
 */
export function WebhookSettings({ edited, set }: { edited: ServerSettings; set: Setter }) {
  return (
    <Section
      title="Webhooks"
      intro="Told of every upload and short link, after the answer: https:// URLs on public addresses only."
    >
      <Stack>
        <TextInput
          label="Discord webhook URL"
          description="https://discord.com/api/webhooks/…; empty: no Discord messages"
          value={edited.discordWebhookUrl ?? ''}
          onChange={(event) => set('discordWebhookUrl', orNull(event.currentTarget.value))}
        />
        <TextInput
          label="Discord name"
          description="The name the messages are posted under; empty: the site title"
          value={edited.discordUsername ?? ''}
          onChange={(event) => set('discordUsername', orNull(event.currentTarget.value))}
        />
        <Textarea
          label="Upload message"
          description="Placeholders such as {user.username}, {file.originalName}, {file.size::bytes}, {link.returned}"
          autosize
          minRows={2}
          value={edited.discordOnUploadContent ?? ''}
          onChange={(event) => set('discordOnUploadContent', orNull(event.currentTarget.value))}
        />
        <Textarea
          label="Short link message"
          description="Placeholders such as {user.username}, {url.destination}, {link.returned}"
          autosize
          minRows={2}
          value={edited.discordOnShortenContent ?? ''}
          onChange={(event) => set('discordOnShortenContent', orNull(event.currentTarget.value))}
        />
        <TextInput
          label="HTTP webhook on upload"
          description="Receives each upload as signed JSON; empty: none"
          value={edited.httpWebhookOnUpload ?? ''}
          onChange={(event) => set('httpWebhookOnUpload', orNull(event.currentTarget.value))}
        />
        <TextInput
          label="HTTP webhook on short link"
          value={edited.httpWebhookOnShorten ?? ''}
          onChange={(event) => set('httpWebhookOnShorten', orNull(event.currentTarget.value))}
        />
        <PasswordInput
          label="Signing secret"
          description="16 to 256 characters; the receiver checks x-webhook-signature with it"
          value={edited.httpWebhookSecret ?? ''}
          onChange={(event) => set('httpWebhookSecret', orNull(event.currentTarget.value))}
        />
      </Stack>
    </Section>
  );
}
