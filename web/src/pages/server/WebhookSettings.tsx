import { PasswordInput, Stack, Textarea, TextInput } from '@mantine/core';
import type { ServerSettings } from '../../api/server.ts';
import { Section } from '../settings/Section.tsx';

type Setter = <K extends keyof ServerSettings>(name: K, value: ServerSettings[K]) => void;

/** The settings edited as free text: an empty input unsets them. */
type TextSetting = {
  [K in keyof ServerSettings]-?: ServerSettings[K] extends string | null
    ? null extends ServerSettings[K]
      ? K
      : never
    : never;
}[keyof ServerSettings];

/** Empty input: the setting unset (null). */
const orNull = (value: string) => value.trim() || null;

/**
 * The webhook targets (docs/webhooks.md): Discord's URL, name and texts, the signed HTTP webhook's
 * URLs and secret (shown masked once set; left as is, it stays). Per-event Discord URLs, avatars and
 * embeds are set through the API.
 */
export function WebhookSettings({ edited, set }: { edited: ServerSettings; set: Setter }) {
  const bind = (name: TextSetting) => ({
    value: edited[name] ?? '',
    onChange: (event: { currentTarget: { value: string } }) => set(name, orNull(event.currentTarget.value)),
  });
  return (
    <Section
      title="Webhooks"
      intro="Told of every upload and short link, after the answer: https:// URLs on public addresses only."
    >
      <Stack>
        <TextInput
          label="Discord webhook URL"
          description="https://discord.com/api/webhooks/…; empty: no Discord messages"
          {...bind('discordWebhookUrl')}
        />
        <TextInput
          label="Discord name"
          description="The name the messages are posted under; empty: the site title"
          {...bind('discordUsername')}
        />
        <Textarea
          label="Upload message"
          description="Placeholders such as {user.username}, {file.originalName}, {file.size::bytes}, {link.returned}"
          autosize
          minRows={2}
          {...bind('discordOnUploadContent')}
        />
        <Textarea
          label="Short link message"
          description="Placeholders such as {user.username}, {url.destination}, {link.returned}"
          autosize
          minRows={2}
          {...bind('discordOnShortenContent')}
        />
        <TextInput
          label="HTTP webhook on upload"
          description="Receives each upload as signed JSON; empty: none"
          {...bind('httpWebhookOnUpload')}
        />
        <TextInput label="HTTP webhook on short link" {...bind('httpWebhookOnShorten')} />
        <PasswordInput
          label="Signing secret"
          description="16 to 256 characters; the receiver checks x-webhook-signature with it"
          {...bind('httpWebhookSecret')}
        />
      </Stack>
    </Section>
  );
}
