const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;

/** A size as people read it: 1024-based, one decimal below 10 (`912 B`, `1.4 MB`, `23 GB`). */
export function humanSize(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const shown = unit === 0 || value >= 10 ? Math.round(value).toString() : value.toFixed(1);
  return `${shown} ${UNITS[unit]}`;
}

/** A timestamp as people read it, the same for every visitor: `2026-11-22 21:50 UTC`. */
export const readableTime = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
