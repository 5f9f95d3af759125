import type { WebhookEvent } from '#shared/webhooks/event';

/**
 * Zipline's placeholders in a Discord message's text (docs/webhooks.md#placeholders): `{file.name}`,
 * `{user.username}`, `{url.destination}`, `{link.returned}`…, with a modifier after `::`
 * (`{file.size::bytes}`, `{file.createdAt::unix}`, `{user.username::upper}`). An object the event
 * lacks is `{unknown_type}`, a field it lacks `{unknown_property}`, as Zipline writes them. Only the
 * event's fields can appear: it holds no token, hash or password.
 */
const PLACEHOLDER = /\{(file|url|user|link)\.(\w+)(?:::(\w+))?\}/gi;

const DATE_FIELDS = new Set(['createdAt', 'deletesAt']);

function bytes(size: number): string {
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let value = size;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}

function modified(value: unknown, field: string, modifier: string | undefined): string {
  const mod = modifier?.toLowerCase();
  if (value === null) return 'null';
  if (DATE_FIELDS.has(field) && typeof value === 'string') {
    const date = new Date(value);
    if (mod === 'unix') return String(Math.floor(date.getTime() / 1000));
    if (mod === 'utc') return date.toUTCString();
    if (mod === 'date') return value.slice(0, 10);
    if (mod === undefined || mod === 'iso' || mod === 'string') return date.toISOString();
    return `{unknown_date_modifier(${mod})}`;
  }
  if (typeof value === 'number') {
    if (mod === 'bytes') return bytes(value);
    if (mod === 'comma') return value.toLocaleString('en-US');
    if (mod === 'hex') return value.toString(16);
    if (mod === undefined || mod === 'string') return String(value);
    return `{unknown_int_modifier(${mod})}`;
  }
  if (typeof value === 'boolean') {
    if (mod === 'yesno') return value ? 'Yes' : 'No';
    if (mod === 'onoff') return value ? 'On' : 'Off';
    if (mod === undefined || mod === 'string') return String(value);
    return `{unknown_bool_modifier(${mod})}`;
  }
  const text = String(value);
  switch (mod) {
    case undefined:
    case 'string':
      return text;
    case 'upper':
      return text.toUpperCase();
    case 'lower':
      return text.toLowerCase();
    case 'title':
      return text.charAt(0).toUpperCase() + text.slice(1);
    case 'length':
      return String(text.length);
    case 'reverse':
      return [...text].reverse().join('');
    case 'base64':
      return Buffer.from(text).toString('base64');
    default:
      return `{unknown_str_modifier(${mod})}`;
  }
}

/** The text with each placeholder replaced by the event's value (`\n` written as two characters is a line break). */
export function fillPlaceholders(text: string, event: WebhookEvent): string {
  return text
    .replace(/\\n/g, '\n')
    .replace(PLACEHOLDER, (_match, type: string, field: string, mod?: string) => {
      const source = event[type.toLowerCase() as 'file' | 'url' | 'user' | 'link'] as
        | Record<string, unknown>
        | undefined;
      if (!source) return '{unknown_type}';
      if (!Object.hasOwn(source, field)) return '{unknown_property}';
      return modified(source[field], field, mod);
    });
}
