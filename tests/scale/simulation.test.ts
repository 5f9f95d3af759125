import { tableName } from '#shared/db/client';
import { recordCapacity } from '../../bench/capacity.ts';
import { ACTIONS, REALISTIC_MIX, type SimulationRun, simulate } from '../../bench/simulation.ts';
import { PARTITION_LIMITS, report } from '../../bench/simulation-report.ts';
import { localClient } from '../../infra/local/dynamodb.ts';

/**
 * `npm run simulate` in small: the same workload code and report against this run's DynamoDB Local
 * and s3rver. The report must add up to what DynamoDB reported, put each unit on the key it was
 * spent on, pass the current design at 10,000 requests a second, and flag a key made hot on purpose.
 */
const reader = localClient(process.env.DYNAMODB_ENDPOINT as string);
const recorder = recordCapacity(reader, tableName);
afterAll(() => reader.destroy());

const TARGET_RPS = 10_000;

/** Units DynamoDB reported for the recorded calls, all targets together. */
function reportedUnits(): number {
  let total = 0;
  for (const call of recorder.calls) {
    for (const capacity of [call.consumedCapacity].flat() as { CapacityUnits?: number }[]) {
      total += capacity?.CapacityUnits ?? 0;
    }
  }
  return total;
}

describe('a realistic mix: many users, one heavy one', () => {
  let run: SimulationRun;
  let reported: number;
  beforeAll(async () => {
    run = await simulate(
      {
        users: 100,
        heavy: { count: 1, share: 0.01, libraryFiles: 50 },
        requests: 200,
        mix: REALISTIC_MIX,
        concurrency: 4,
        seed: 17,
      },
      recorder,
    );
    reported = reportedUnits();
    // Setting up 100 users and making 200 requests through the handlers: not a timing assertion.
  }, 180_000);

  test('every action ran, and every unit DynamoDB reported is on some partition key', () => {
    for (const action of ACTIONS) expect(run.counts[action]).toBeGreaterThan(0);
    expect(Object.values(run.counts).reduce((sum, count) => sum + count, 0)).toBe(200);
    const attributed = run.units.reduce((sum, spent) => sum + spent.units, 0);
    expect(attributed).toBeCloseTo(reported, 6);
  });

  test('units land on the keys that took them: file indexes on the uploader’s FILES# key', () => {
    const fileIndexes = ['gsi2', 'gsi3', 'gsi5', 'gsi6', 'gsi7', 'gsi8'];
    const written = run.units.filter((spent) => fileIndexes.includes(spent.target));
    expect(written.length).toBeGreaterThan(0);
    for (const spent of written) expect(spent.key).toMatch(/^FILES#[0-9a-f-]{36}$/);
    // A partition of many (`USER#…`) or a singleton item (the server settings, `SETTINGS`).
    expect(
      run.units.filter((spent) => spent.target === 'table').every((spent) => /^[A-Z]+(#|$)/.test(spent.key)),
    ).toBe(true);
    // What tests/http/files-index-writes.test.ts measures of one upload, per upload here.
    expect(run.perAction.upload?.write).toBeCloseTo(24, 6);
    expect(run.perAction.uploadExpiring?.write).toBeCloseTo(26, 6);
    expect(run.perAction.userRead?.write).toBe(0);
  });

  test('the current design passes at 10,000 requests a second', () => {
    const result = report(run, TARGET_RPS);
    expect(result.overLimit).toEqual([]);
    expect(result.hottest.length).toBeGreaterThan(0);
    for (const key of result.hottest) {
      expect(key.perSecond).toBeCloseTo((key.units * TARGET_RPS) / 200, 6);
      expect(key.limit).toBe(PARTITION_LIMITS[key.kind]);
    }
  });
});

test('a user making half of all requests, all uploads, is flagged on its keys, hottest first', async () => {
  const run = await simulate(
    {
      users: 10,
      heavy: { count: 1, share: 0.5, libraryFiles: 0 },
      requests: 40,
      mix: { ...Object.fromEntries(ACTIONS.map((action) => [action, 0])), upload: 1 } as typeof REALISTIC_MIX,
      concurrency: 4,
      seed: 5,
    },
    recorder,
  );
  const [heavyId] = run.userIds.heavy;
  const { overLimit } = report(run, TARGET_RPS);
  const flagged = overLimit.map((key) => `${key.target} ${key.kind} ${key.key}`);
  // About 5,000 uploads a second by one user: 2 units each in every dense file index. (The others
  // share the other half: a few requests each in a run this small, so some are flagged too.)
  expect(flagged).toEqual(
    expect.arrayContaining([
      `gsi2 write FILES#${heavyId}`,
      `gsi7 write FILES#${heavyId}`,
      `table write USER#${heavyId}`,
    ]),
  );
  expect(overLimit[0]?.key).toContain(heavyId);
}, 120_000);
