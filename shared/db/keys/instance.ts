/** The instance's own items: its setup mark, run-time settings, invites, daily metrics and attempt counters. */

/**
 * The instance's run-time settings (issue 38): one item, read by every function that applies one (a
 * grant on this one key) and written by `PATCH /api/server/settings`.
 */
export const settingsKey = { pk: 'SETTINGS', sk: 'SETTINGS' };

/**
 * An invite (issue 38), by its code: registration's conditional use counter is one UpdateItem of this
 * key in the new user's transaction. One partition holds them all, so the admin listing is one Query
 * (invites are made by hand: a few hundred at most, read only by administrators and registrations).
 */
export const inviteKey = (code: string) => ({ pk: 'INVITES', sk: `CODE#${code}` });

export const INVITES_PARTITION = 'INVITES';

/** Exists once the first user has been created; its conditional put decides the setup race. */
export const setupKey = { pk: 'SETUP', sk: 'SETUP' };

/**
 * An attempt counter: one item per limited subject (a hashed username, address or user id) and fixed
 * window, so a new window starts from zero without anything having to reset it.
 */
export const throttleKey = (scope: string, subjectHash: string, windowStart: number) => ({
  pk: `THROTTLE#${scope}#${subjectHash}`,
  sk: `WINDOW#${windowStart}`,
});

/**
 * The instance's daily figures (issue 36, metrics/store.ts): one item per UTC day in one partition,
 * so a year of them is one Query. The daily job overwrites its day's item (a second run the same day
 * writes the same key).
 */
export const METRICS_PARTITION = 'METRICS';

export const metricsDayKey = (day: string) => ({ pk: METRICS_PARTITION, sk: `DAY#${day}` });
