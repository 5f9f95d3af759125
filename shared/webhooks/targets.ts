import type { ServerSettings } from '#shared/settings/model';
import type { WebhookKind, WebhookTarget } from '#shared/webhooks/event';

/** Zipline's `discordOn<Upload|Shorten>*` settings of one event, its URL, name and avatar falling back to the global ones. */
export function discordSettings(settings: ServerSettings, kind: WebhookKind) {
  const on = kind === 'upload' ? 'discordOnUpload' : 'discordOnShorten';
  return {
    url: settings[`${on}WebhookUrl`] ?? settings.discordWebhookUrl,
    username: settings[`${on}Username`] ?? settings.discordUsername ?? settings.websiteTitle,
    avatarUrl: settings[`${on}AvatarUrl`] ?? settings.discordAvatarUrl,
    content: settings[`${on}Content`],
    embed: settings[`${on}Embed`],
  };
}

/** The URL each target of an event has in these settings, or null: not sent there. */
export function targetUrl(settings: ServerSettings, kind: WebhookKind, target: WebhookTarget): string | null {
  if (target === 'discord') return discordSettings(settings, kind).url;
  return kind === 'upload' ? settings.httpWebhookOnUpload : settings.httpWebhookOnShorten;
}
