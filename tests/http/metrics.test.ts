import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { documents, tableName } from '#shared/db/client';
import { metricsDayKey } from '#shared/db/keys/instance';
import type { Metric } from '#shared/metrics/model';
import { recordDailyMetric } from '#shared/metrics/store';
import { loadHandler } from '../../infra/local/dispatch.ts';
import { scheduledEvent } from '../../infra/local/schedules.ts';
import { call } from '../support/client.ts';
import { upload } from '../support/files.ts';
import { signedInUser } from '../support/users.ts';

/**
 * Instance metrics (issue 36, docs/metrics.md): `GET /api/stats` answers the daily job's items, for
 * administrators only; the job counts what uploads, deletions, views and links left, and rewrites
 * its day's item when run again. Each test file has a table of its own, so the figures are exact.
 */

const runDailyJob = async () =>
  ((await loadHandler('metrics/daily')) as unknown as (event: unknown) => Promise<{ day: string }>)(
    scheduledEvent(),
  );

let admin: Awaited<ReturnType<typeof signedInUser>>;
beforeAll(async () => {
  admin = await signedInUser('ADMIN');
});
const stats = async (query = '', who: { cookie?: string; token?: string } = admin) =>
  call('GET', `/api/stats${query}`, who);

const emptyData = {
  users: 0,
  files: 0,
  fileViews: 0,
  urls: 0,
  urlViews: 0,
  storage: 0,
  filesUsers: [],
  urlsUsers: [],
  types: [],
};

describe('who may read the instance figures', () => {
  test('nobody signed in: 401; a USER: 403, as /api/users answers; an ADMIN and a SUPERADMIN: 200', async () => {
    expect((await call('GET', '/api/stats')).status).toBe(401);
    const user = await signedInUser('USER');
    const refused = await stats('', { token: user.token });
    expect(refused.status).toBe(403);
    expect((await call('GET', '/api/users', { token: user.token })).status).toBe(403);
    expect((await stats('', { token: admin.token })).status).toBe(200);
    const owner = await signedInUser('SUPERADMIN');
    expect((await stats('', { cookie: owner.cookie })).status).toBe(200);
  });
});

describe('the daily job counts the instance', () => {
  test('uploads, a deletion, views and short links, per user and per type', async () => {
    const alice = await signedInUser('USER');
    const bob = await signedInUser('USER');
    const [kept, gone, json] = await upload(alice.token, [
      { fileName: 'a.txt', type: 'text/plain', content: 'hello' },
      { fileName: 'b.txt', type: 'text/plain', content: 'deleted soon' },
      { fileName: 'c.json', type: 'application/json', content: '{"a":1}' },
    ]);
    const [bobs] = await upload(bob.token, [{ fileName: 'd.txt', type: 'text/plain', content: 'bob!' }]);
    expect((await call('DELETE', `/api/user/files/${gone?.id}`, { token: alice.token })).status).toBe(200);
    for (let view = 0; view < 3; view++) expect((await call('GET', `/raw/${kept?.name}`)).status).toBe(200);
    expect((await call('GET', `/raw/${bobs?.name}`)).status).toBe(200);
    const link = await call('POST', '/api/user/urls', {
      token: bob.token,
      json: { destination: 'https://example.com/a' },
    });
    await call('POST', '/api/user/urls', {
      token: bob.token,
      json: { destination: 'https://example.com/b' },
    });
    await call('POST', '/api/user/urls', {
      token: alice.token,
      json: { destination: 'https://example.com/c' },
    });
    for (let visit = 0; visit < 2; visit++)
      expect((await call('GET', `/go/${link.body.code}`)).status).toBe(302);

    const { day } = await runDailyJob();
    const response = await stats();
    expect(response.status).toBe(200);
    const metrics = response.body as Metric[];
    expect(metrics.map((metric) => metric.id)).toEqual([day]);
    // Five users: this file's administrator, the USER and SUPERADMIN of the test above, Alice and Bob.
    expect(metrics[0]?.data).toEqual({
      users: 5,
      files: 3,
      storage: 5 + 7 + 4,
      fileViews: 4,
      urls: 3,
      urlViews: 2,
      filesUsers: [
        { username: alice.username, sum: 2, storage: 12, views: 3 },
        { username: bob.username, sum: 1, storage: 4, views: 1 },
      ],
      urlsUsers: [
        { username: bob.username, sum: 2, views: 2 },
        { username: alice.username, sum: 1, views: 0 },
      ],
      types: [
        { type: kept?.type, sum: 2 },
        { type: json?.type, sum: 1 },
      ],
    });
    expect(Object.keys(metrics[0] ?? {}).sort()).toEqual(['createdAt', 'data', 'id', 'updatedAt']);
  });

  test('run again the same day: the same item, its figures and updatedAt refreshed, createdAt kept', async () => {
    const first = await runDailyJob();
    const before = (
      await documents.send(new GetCommand({ TableName: tableName, Key: metricsDayKey(first.day) }))
    ).Item as Metric;
    const carol = await signedInUser('USER');
    await upload(carol.token, [{ fileName: 'e.txt', type: 'text/plain', content: 'carol' }]);
    const second = await runDailyJob();
    expect(second.day).toBe(first.day);
    const metrics = (await stats()).body as Metric[];
    expect(metrics).toHaveLength(1);
    expect(metrics[0]?.createdAt).toBe(before.createdAt);
    expect(String(metrics[0]?.updatedAt) >= before.updatedAt).toBe(true);
    expect(metrics[0]?.data.users).toBe(before.data.users + 1);
    expect(metrics[0]?.data.files).toBe(before.data.files + 1);
  });
});

describe('the days asked for', () => {
  const DAY = 86_400_000;
  const daysAgo = (days: number) => new Date(Date.now() - days * DAY);

  beforeAll(async () => {
    // Days the job ran before (a missed day between them is simply absent).
    for (const days of [3, 8, 40])
      await recordDailyMetric(daysAgo(days).toISOString().slice(0, 10), emptyData, daysAgo(days));
  });

  const ids = async (query: string) => {
    const response = await stats(query);
    expect(response.status).toBe(200);
    return (response.body as Metric[]).map((metric) => metric.id);
  };
  const day = (days: number) => daysAgo(days).toISOString().slice(0, 10);

  test('by default the last seven days, newest first; all=true every day kept', async () => {
    expect(await ids('')).toEqual([day(0), day(3)]);
    expect(await ids('?all=false')).toEqual([day(0), day(3)]);
    expect(await ids('?all=true')).toEqual([day(0), day(3), day(8), day(40)]);
  });

  test('from and to bound the instants the figures were first taken', async () => {
    expect(await ids(`?from=${daysAgo(45).toISOString()}&to=${daysAgo(5).toISOString()}`)).toEqual([
      day(8),
      day(40),
    ]);
    expect(await ids(`?from=${day(9)}`)).toEqual([day(0), day(3), day(8)]);
    expect(await ids(`?from=${daysAgo(100).toISOString()}&to=${daysAgo(50).toISOString()}`)).toEqual([]);
    // all=true ignores the range, as Zipline's does (even one backwards).
    expect(await ids(`?all=true&from=${day(1)}&to=${day(9)}`)).toHaveLength(4);
  });

  test.each([
    ['?from=yesterday', 'from must be an ISO 8601 date'],
    ['?to=2026-02-30', 'to must be an ISO 8601 date'],
    ['?from=2026-11-26T25:00:00Z', 'from must be an ISO 8601 date'],
    ['?from=1700000000000', 'from must be an ISO 8601 date'],
    [`?from=${'2026-01-01'.repeat(5)}`, 'from must be an ISO 8601 date'],
    ['?all=yes', 'all must be true or false'],
    ['?all=true&from=soon', 'from must be an ISO 8601 date'],
    [
      `?from=${new Date(Date.now() + DAY).toISOString()}&to=${new Date(Date.now() + 2 * DAY).toISOString()}`,
      'from must not be in the future',
    ],
    ['?from=2026-01-02&to=2026-01-01', 'from must not be after to'],
  ])('%s: 400 saying why', async (query, message) => {
    const response = await stats(query);
    expect(response.status).toBe(400);
    expect(JSON.stringify(response.body)).toContain(message);
  });
});
