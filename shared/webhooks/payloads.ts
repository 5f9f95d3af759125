import { createHmac } from 'node:crypto';
import type { ServerSettings } from '#shared/settings/model';
import type { DiscordEmbed } from '#shared/settings/webhooks';
import type { WebhookEvent, WebhookKind } from '#shared/webhooks/event';
import { fillPlaceholders } from '#shared/webhooks/placeholders';
import { discordSettings, targetUrl } from '#shared/webhooks/targets';

/** A delivery: where, what, with which headers. */
export interface Delivery {
  url: string;
  body: string;
  headers: Record<string, string>;
}

/** What a message says when the settings give it neither text nor embed (Discord refuses an empty one). */
const DEFAULT_CONTENT: Record<WebhookKind, string> = {
  upload: '{user.username} uploaded {file.originalName} ({file.size::bytes}): {link.returned}',
  shorten: '{user.username} shortened {url.destination}: {link.returned}',
};

function embedOf(embed: DiscordEmbed, event: WebhookEvent) {
  const fill = (text: string | null) => (text ? fillPlaceholders(text, event) : null);
  const type = event.file?.type ?? '';
  const image = type.startsWith('image/');
  const video = type.startsWith('video/');
  return {
    title: fill(embed.title),
    description: fill(embed.description),
    url: embed.url ? event.link.returned : null,
    color: embed.color ? Number.parseInt(embed.color.slice(1), 16) : null,
    timestamp: embed.timestamp ? ((event.file ?? event.url)?.createdAt ?? event.occurredAt) : null,
    footer: embed.footer ? { text: fill(embed.footer) } : null,
    thumbnail: image && embed.thumbnail ? { url: event.link.raw } : null,
    image: image && embed.imageOrVideo ? { url: event.link.raw } : null,
    video: video && embed.imageOrVideo ? { url: event.link.raw } : null,
  };
}

/**
 * Zipline 4.4's Discord message (its `buildResponse`): `username`, `avatar_url`, `content` and at
 * most one embed, their texts' placeholders filled; `allowed_mentions` empty, so a file named
 * `@everyone` pings nobody.
 */
export function discordDelivery(settings: ServerSettings, event: WebhookEvent): Delivery | null {
  const discord = discordSettings(settings, event.type);
  if (!discord.url) return null;
  const content = discord.content ?? (discord.embed ? null : DEFAULT_CONTENT[event.type]);
  const body = {
    username: discord.username,
    avatar_url: discord.avatarUrl,
    content: content === null ? null : fillPlaceholders(content, event).slice(0, 2000),
    embeds: discord.embed ? [embedOf(discord.embed, event)] : null,
    allowed_mentions: { parse: [] },
  };
  return { url: discord.url, body: JSON.stringify(body), headers: {} };
}

/** `sha256=<hex>` of `<timestamp>.<body>` under the secret: what a receiver recomputes (docs/webhooks.md). */
export function webhookSignature(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/**
 * The generic webhook's JSON (Zipline's `{type, data: {user, file|url, link}}` plus the event's id
 * and time), with Zipline's `x-zipline-webhook*` headers, the time sent and, with a secret set, the
 * signature of both.
 */
export function httpDelivery(
  settings: ServerSettings,
  event: WebhookEvent,
  now: Date = new Date(),
): Delivery | null {
  const url = targetUrl(settings, event.type, 'http');
  if (!url) return null;
  const { id, type, occurredAt, user, file, url: link, link: links } = event;
  const data = type === 'upload' ? { user, file, link: links } : { user, url: link, link: links };
  const body = JSON.stringify({ id, type, occurredAt, data });
  const timestamp = String(Math.floor(now.getTime() / 1000));
  const headers: Record<string, string> = {
    'x-zipline-webhook': 'true',
    'x-zipline-webhook-type': type,
    'x-webhook-id': id,
    'x-webhook-timestamp': timestamp,
  };
  if (settings.httpWebhookSecret) {
    headers['x-webhook-signature'] = webhookSignature(settings.httpWebhookSecret, timestamp, body);
  }
  return { url, body, headers };
}
