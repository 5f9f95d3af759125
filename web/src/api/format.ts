const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'];

/** 1536 → "1.5 KB" (binary multiples, as file managers show them). */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? value : value.toFixed(value < 10 ? 1 : 0)} ${UNITS[unit]}`;
}

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
export const formatDate = (iso: string) => dateTime.format(new Date(iso));
const day = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
/** The day alone, where a card has no room for the time. */
export const formatDay = (iso: string) => day.format(new Date(iso));

/** A file's link as people share it: the API gives a path or an absolute URL. */
export const absoluteUrl = (url: string) => new URL(url, window.location.origin).href;

/** The owner's preview/open URL: counts no view. */
export const ownerRawUrl = (id: string) => `/api/user/files/${encodeURIComponent(id)}/raw`;

/** An ISO instant as the value of `<input type="datetime-local">` (local time) and back. */
export function toLocalInput(iso: string | null): string {
  if (!iso) return '';
  const date = new Date(iso);
  return new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}
export const fromLocalInput = (value: string): string | null =>
  value ? new Date(value).toISOString() : null;
