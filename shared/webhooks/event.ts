import { randomUUID } from 'node:crypto';
import type { FileRecord } from '#shared/files/model';
import type { LinkRecord } from '#shared/links/model';

/** What happened, by Zipline's names: a file uploaded, a short link made. */
export type WebhookKind = 'upload' | 'shorten';
/** Where it is told: Discord's message, or the signed JSON of the generic HTTP webhook. */
export type WebhookTarget = 'discord' | 'http';

/** The uploader or link maker, as told: no token, hash or secret of theirs is ever in an event. */
export interface WebhookUser {
  id: string;
  username: string;
  role: string;
}

/** An uploaded file, as told (Zipline's File fields without its password). */
export interface WebhookFile {
  id: string;
  name: string;
  originalName: string;
  type: string;
  size: number;
  createdAt: string;
  deletesAt: string | null;
  maxViews: number | null;
  favorite: boolean;
  password: boolean;
}

/** A short link, as told (Zipline's Url fields without its password). */
export interface WebhookUrl {
  id: string;
  code: string;
  vanity: string | null;
  destination: string;
  enabled: boolean;
  maxViews: number | null;
  createdAt: string;
  password: boolean;
}

/** The URLs Zipline's placeholders call `link`: the one answered to the client, and the raw one. */
export interface WebhookLink {
  returned: string;
  raw: string;
}

/** One event for one target: the deliverer's whole input (an asynchronous invocation's payload). */
export interface WebhookEvent {
  /** Unique per event and target; the receiver's key to drop a retried delivery it already has. */
  id: string;
  type: WebhookKind;
  target: WebhookTarget;
  occurredAt: string;
  user: WebhookUser;
  file?: WebhookFile;
  url?: WebhookUrl;
  link: WebhookLink;
}

/** What an event says before a target is picked for it. */
export type WebhookNews = Omit<WebhookEvent, 'id' | 'target' | 'occurredAt'>;

export const userOf = (user: { id: string; username: string; role: string }): WebhookUser => ({
  id: user.id,
  username: user.username,
  role: user.role,
});

export function uploadNews(user: WebhookUser, file: FileRecord, link: WebhookLink): WebhookNews {
  return {
    type: 'upload',
    user,
    file: {
      id: file.id,
      name: file.name,
      originalName: file.originalName,
      type: file.type,
      size: file.size,
      createdAt: file.createdAt,
      deletesAt: file.deletesAt,
      maxViews: file.maxViews,
      favorite: file.favorite,
      password: file.passwordHash !== null,
    },
    link,
  };
}

export function shortenNews(user: WebhookUser, url: LinkRecord, returned: string): WebhookNews {
  return {
    type: 'shorten',
    user,
    url: {
      id: url.id,
      code: url.code,
      vanity: url.vanity,
      destination: url.destination,
      enabled: url.enabled,
      maxViews: url.maxViews,
      createdAt: url.createdAt,
      password: url.passwordHash !== null,
    },
    link: { returned, raw: url.destination },
  };
}

export const eventFor = (news: WebhookNews, target: WebhookTarget): WebhookEvent => ({
  id: randomUUID(),
  target,
  occurredAt: new Date().toISOString(),
  ...news,
});
