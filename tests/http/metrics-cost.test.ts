import { TOP_ENTRIES } from '#shared/metrics/model';
import { recordDailyMetric } from '#shared/metrics/store';
import { emptyStats, fillLibrary } from '../../bench/library.ts';
import { loadHandler } from '../../infra/local/dispatch.ts';
import { call } from '../support/client.ts';
import { recordSdkCalls } from '../support/sdk-calls.ts';
import { signedInUser } from '../support/users.ts';

/**
 * What `GET /api/stats` costs (docs/metrics.md): a year of daily items, each as large as the job
 * makes them (ten users of each list with long names, ten types), is one Query of the METRICS
 * partition, measured in the read units DynamoDB reports (ReturnConsumedCapacity).
 */

const recorder = recordSdkCalls();
const FILES = 2_000;
const DAY = 86_400_000;
const YEAR = 365;

/** A day's figures at their largest: every list full, names as long as usernames go. */
const fullDay = (index: number) => ({
  users: 1000 + index,
  files: 250_000 + index * 100,
  fileViews: 9_000_000 + index,
  urls: 12_000 + index,
  urlViews: 700_000 + index,
  storage: 5_000_000_000_000 + index,
  filesUsers: Array.from({ length: TOP_ENTRIES }, (_, n) => ({
    username: `a-rather-long-username-of-thirty-${n}`.padEnd(32, 'x'),
    sum: 90_000 - n,
    storage: 900_000_000_000 - n,
    views: 1_000_000 - n,
  })),
  urlsUsers: Array.from({ length: TOP_ENTRIES }, (_, n) => ({
    username: `a-rather-long-username-of-thirty-${n}`.padEnd(32, 'x'),
    sum: 5_000 - n,
    views: 100_000 - n,
  })),
  types: Array.from({ length: TOP_ENTRIES }, (_, n) => ({
    type: `application/vnd.openxmlformats-officedocument.${n}`,
    sum: 20_000 - n,
  })),
});

test('a year of daily figures: one Query, at most a few hundred read units', async () => {
  const admin = await signedInUser('ADMIN');
  const now = Date.now();
  for (let day = 0; day < YEAR; day++) {
    const taken = new Date(now - day * DAY - 60_000);
    await recordDailyMetric(taken.toISOString().slice(0, 10), fullDay(day), taken);
  }
  recorder.reset();
  const response = await call('GET', `/api/stats?from=${new Date(now - YEAR * DAY).toISOString()}`, {
    token: admin.token,
  });
  expect(response.status).toBe(200);
  expect(response.body).toHaveLength(YEAR);
  expect(response.body[0].data).toEqual(fullDay(0));
  // The caller's item (GetItem), then the days: one Query page.
  const commands = recorder.calls.map((recorded) => recorded.command);
  expect(commands).toEqual(['GetItemCommand', 'QueryCommand']);
  const units = (recorder.calls[1]?.consumedCapacity as { CapacityUnits: number } | undefined)?.CapacityUnits;
  // Measured 2026-11-26: 102 (docs/metrics.md; about 2.7 KB an item, 0.5 unit per 4 KB read).
  expect(units).toBeGreaterThan(0);
  expect(units).toBeLessThanOrEqual(200);
}, 120_000);

test('the daily job reads the file items once: about 0.5 read unit per 4 KB of them, plus the users', async () => {
  const owner = await signedInUser('USER');
  await fillLibrary(owner.id, 0, FILES, emptyStats());
  recorder.reset();
  const job = (await loadHandler('metrics/daily')) as unknown as () => Promise<{ files: number }>;
  expect((await job()).files).toBe(FILES);
  const units = (command: string) =>
    recorder.calls
      .filter((recorded) => recorded.command === command)
      // A BatchGetItem reports its units per table, as a list.
      .flatMap((recorded) => [recorded.consumedCapacity].flat() as { CapacityUnits: number }[])
      .reduce((sum, capacity) => sum + capacity.CapacityUnits, 0);
  const reads = units('QueryCommand') + units('BatchGetItemCommand');
  // Measured 2026-11-26: 269 (docs/metrics.md); the bench's file items are about 1 KB each.
  expect(reads).toBeGreaterThan(FILES / 16);
  expect(reads).toBeLessThanOrEqual(FILES / 4);
  expect(units('UpdateItemCommand')).toBeLessThanOrEqual(3);
}, 180_000);
