/**
 * The webhook targets among the server settings (issue 38, docs/webhooks.md), by Zipline 4.4's names
 * where Zipline has the setting; `httpWebhookSecret` is this service's own (the HMAC key of the
 * generic webhook's signature).
 */

/** Zipline's embed settings: texts with placeholders, and which parts of the message to show. */
export interface DiscordEmbed {
  title: string | null;
  description: string | null;
  footer: string | null;
  /** `#rrggbb`. */
  color: string | null;
  /** The image as the embed's thumbnail (images only). */
  thumbnail: boolean;
  /** The image or video itself in the embed. */
  imageOrVideo: boolean;
  /** The upload's or link's time in the embed. */
  timestamp: boolean;
  /** The embed's title links to the file or short link. */
  url: boolean;
}

export interface WebhookSettings {
  /** Discord webhook of both events, unless an event names its own. */
  discordWebhookUrl: string | null;
  /** The name the messages are posted under (default "Zipline"'s: the site title). */
  discordUsername: string | null;
  discordAvatarUrl: string | null;
  discordOnUploadWebhookUrl: string | null;
  discordOnUploadUsername: string | null;
  discordOnUploadAvatarUrl: string | null;
  /** The message's text, with placeholders (`{file.name}`); null with no embed: a default text. */
  discordOnUploadContent: string | null;
  discordOnUploadEmbed: DiscordEmbed | null;
  discordOnShortenWebhookUrl: string | null;
  discordOnShortenUsername: string | null;
  discordOnShortenAvatarUrl: string | null;
  discordOnShortenContent: string | null;
  discordOnShortenEmbed: DiscordEmbed | null;
  /** Receives each upload as signed JSON (`POST`), or null. */
  httpWebhookOnUpload: string | null;
  /** Receives each short link made as signed JSON, or null. */
  httpWebhookOnShorten: string | null;
  /** The HMAC-SHA256 key of the generic webhook's signature: never answered in full, never logged. */
  httpWebhookSecret: string | null;
}

export const webhookDefaults = (): WebhookSettings => ({
  discordWebhookUrl: null,
  discordUsername: null,
  discordAvatarUrl: null,
  discordOnUploadWebhookUrl: null,
  discordOnUploadUsername: null,
  discordOnUploadAvatarUrl: null,
  discordOnUploadContent: null,
  discordOnUploadEmbed: null,
  discordOnShortenWebhookUrl: null,
  discordOnShortenUsername: null,
  discordOnShortenAvatarUrl: null,
  discordOnShortenContent: null,
  discordOnShortenEmbed: null,
  httpWebhookOnUpload: null,
  httpWebhookOnShorten: null,
  httpWebhookSecret: null,
});

/**
 * What `GET /api/server/settings` answers in place of a set secret. A PATCH sending it back (a form
 * that sends every field) leaves the secret as it is.
 */
export const MASKED_SECRET = '••••••••';

export function maskedWebhookSecret<T extends WebhookSettings>(settings: T): T {
  return settings.httpWebhookSecret === null ? settings : { ...settings, httpWebhookSecret: MASKED_SECRET };
}
