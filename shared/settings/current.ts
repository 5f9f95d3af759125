import type { ServerSettings } from '#shared/settings/model';
import { readSettings, type StoredSettings } from '#shared/settings/store';

/**
 * How old the settings a warm function applies may be: each function keeps the item it last read
 * for this long (module scope), so a change reaches every function within 10 seconds at the cost of
 * one GetItem (0.5 RCU) per function instance per 10 seconds of traffic (docs/settings.md).
 */
export const SETTINGS_STALENESS_MS = 10_000;

let cached: { settings: StoredSettings; readAt: number } | undefined;
let reading: Promise<StoredSettings> | undefined;

/** The settings to apply now: the cached copy while fresh, else read once for all waiting callers. */
export async function currentSettings(): Promise<ServerSettings> {
  if (cached && Date.now() - cached.readAt < SETTINGS_STALENESS_MS) return cached.settings.settings;
  reading ??= readSettings()
    .then((settings) => {
      remember(settings);
      return settings;
    })
    .finally(() => {
      reading = undefined;
    });
  return (await reading).settings;
}

/**
 * Keeps settings just read or written: the function that changed them applies the change at once;
 * an older version never replaces a newer one (a read that raced a write).
 */
export function remember(settings: StoredSettings): void {
  if (
    cached &&
    cached.settings.version > settings.version &&
    Date.now() - cached.readAt < SETTINGS_STALENESS_MS
  )
    return;
  cached = { settings, readAt: Date.now() };
}

/**
 * Forgets the cached copy, as a cold start does: the local runner's functions share one module
 * scope, so the grants test makes each request a fresh function's to see each one read the item.
 */
export function forgetSettings(): void {
  cached = undefined;
}
