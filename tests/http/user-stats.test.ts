import { call } from '../support/client.ts';
import { expireFile, upload } from '../support/files.ts';
import { PNG_1X1 } from '../support/pixels.ts';
import { recordSdkCalls } from '../support/sdk-calls.ts';
import { signedInUser } from '../support/users.ts';

/**
 * `GET /api/user/stats` and `GET /api/user/recent` (issue 36) through the HTTP path: figures from the
 * counters kept by every file write, exact after uploads, favourites, type changes, deletes, expiry
 * and concurrent writes, checked against a recount of the listing.
 */
const recorder = recordSdkCalls('TOTAL');

const png = (fileName = 'shot.png') => ({ fileName, type: 'image/png', content: PNG_1X1 });
const text = (fileName: string, content = 'hello') => ({ fileName, type: 'text/plain', content });

const stats = async (token: string) => {
  const response = await call('GET', '/api/user/stats', { token });
  expect(response.status).toBe(200);
  return response.body;
};

/** The figures the files listing gives, counted one by one: what the counters must equal. */
async function recount(token: string) {
  const listed = await call('GET', '/api/user/files?perpage=100', { token });
  const files = listed.body.page as { type: string; size: number; favorite: boolean }[];
  const sortTypeCount: Record<string, number> = {};
  for (const file of files) sortTypeCount[file.type] = (sortTypeCount[file.type] ?? 0) + 1;
  return {
    filesUploaded: files.length,
    favoriteFiles: files.filter((file) => file.favorite).length,
    storageUsed: files.reduce((sum, file) => sum + file.size, 0),
    sortTypeCount,
  };
}

test("a new user's stats are Zipline's shape, all zero", async () => {
  const user = await signedInUser();
  expect(await stats(user.token)).toEqual({
    filesUploaded: 0,
    favoriteFiles: 0,
    views: 0,
    avgViews: 0,
    storageUsed: 0,
    avgStorageUsed: 0,
    urlsCreated: 0,
    urlViews: 0,
    sortTypeCount: {},
  });
});

test('uploads, a favourite, a type change, a delete, an expiry and links move the figures exactly', async () => {
  const user = await signedInUser();
  const [image, first, second] = await upload(user.token, [
    png(),
    text('a.txt', 'abc'),
    text('b.txt', 'defgh'),
  ]);
  await upload(user.token, [png('two.png')]);
  expect(await stats(user.token)).toMatchObject({
    filesUploaded: 4,
    storageUsed: 2 * PNG_1X1.length + 8,
    avgStorageUsed: (2 * PNG_1X1.length + 8) / 4,
    sortTypeCount: { 'image/png': 2, 'text/plain': 2 },
  });
  const patch = (id: string | undefined, json: unknown) =>
    call('PATCH', `/api/user/files/${id}`, { token: user.token, json });
  expect((await patch(image?.id, { favorite: true })).status).toBe(200);
  expect((await patch(first?.id, { type: 'text/markdown' })).status).toBe(200);
  expect((await call('DELETE', `/api/user/files/${second?.id}`, { token: user.token })).status).toBe(200);
  await expireFile(user.id, image?.id as string);
  const { sweepExpiredFiles } = await import('#shared/files/expiry/sweep');
  await sweepExpiredFiles();
  for (const destination of ['https://example.com/1', 'https://example.com/2']) {
    expect((await call('POST', '/api/user/urls', { token: user.token, json: { destination } })).status).toBe(
      200,
    );
  }
  const figures = await stats(user.token);
  expect(figures).toMatchObject({
    filesUploaded: 2,
    favoriteFiles: 0,
    storageUsed: PNG_1X1.length + 3,
    urlsCreated: 2,
    sortTypeCount: { 'image/png': 1, 'text/markdown': 1 },
  });
  expect(figures).toMatchObject(await recount(user.token));
});

test('concurrent uploads, favourite toggles and deletes leave the counters equal to a recount', async () => {
  const user = await signedInUser();
  const uploaded = (
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        upload(user.token, [i % 3 ? text(`f${i}.txt`, 'x'.repeat(i)) : png()]),
      ),
    )
  ).flat();
  await Promise.all(
    uploaded.flatMap((file, i) => [
      call('PATCH', `/api/user/files/${file.id}`, { token: user.token, json: { favorite: i % 2 === 0 } }),
      call('PATCH', `/api/user/files/${file.id}`, { token: user.token, json: { favorite: true } }),
      ...(i % 4 === 0 ? [call('DELETE', `/api/user/files/${file.id}`, { token: user.token })] : []),
      ...(i % 4 === 1
        ? [
            call('PATCH', `/api/user/files/${file.id}`, {
              token: user.token,
              json: { type: 'application/json' },
            }),
          ]
        : []),
    ]),
  );
  const expected = await recount(user.token);
  expect(expected.filesUploaded).toBe(9);
  expect(await stats(user.token)).toMatchObject(expected);
});

test('stats cost one query of the counters, one GetItem of the link counter and one BatchGetItem of the view totals, whatever the library', async () => {
  const user = await signedInUser();
  await upload(user.token, [png(), text('a.txt'), text('b.txt'), png('c.png')]);
  recorder.reset();
  await stats(user.token);
  const reads = recorder.calls.map((recorded) => ({
    command: recorded.command,
    units: ([recorded.consumedCapacity].flat() as { CapacityUnits?: number }[]).reduce(
      (sum, capacity) => sum + (capacity?.CapacityUnits ?? 0),
      0,
    ),
  }));
  // The caller's user item (authentication), the counters with two types, the link counter, and
  // the ten shards of the view totals (half a unit each).
  expect(reads).toEqual([
    { command: 'GetItemCommand', units: 0.5 },
    expect.objectContaining({ units: expect.any(Number) }),
    expect.objectContaining({ units: expect.any(Number) }),
    expect.objectContaining({ units: expect.any(Number) }),
  ]);
  const units = Object.fromEntries(reads.map((read) => [read.command, read.units]));
  expect(units).toMatchObject({ GetItemCommand: 0.5, QueryCommand: 0.5 });
  // DynamoDB Local charges nothing for shards not written yet; DynamoDB half a unit each at most.
  expect(units.BatchGetItemCommand).toBeLessThanOrEqual(5);
});

test('recent: the newest files first, 3 unless take says, an expired one left out, bad take 400', async () => {
  const user = await signedInUser();
  const names: string[] = [];
  for (let i = 0; i < 5; i++) names.push((await upload(user.token, [text(`r${i}.txt`)]))[0]?.name as string);
  const recent = await call('GET', '/api/user/recent', { token: user.token });
  expect(recent.status).toBe(200);
  expect(recent.body.map((file: { name: string }) => file.name)).toEqual(names.slice(2).reverse());
  expect(recent.body[0]).toMatchObject({
    name: names[4],
    type: 'text/plain',
    size: 5,
    url: expect.any(String),
  });
  const all = await call('GET', '/api/user/recent?take=100', { token: user.token });
  expect(all.body).toHaveLength(5);
  const newest = (await call('GET', '/api/user/files?perpage=1', { token: user.token })).body.page[0];
  await expireFile(user.id, newest.id);
  const afterExpiry = await call('GET', '/api/user/recent?take=3', { token: user.token });
  expect(afterExpiry.body.map((file: { name: string }) => file.name)).toEqual(names.slice(1, 4).reverse());
  for (const take of ['0', '101', 'abc', '1.5']) {
    const refused = await call('GET', `/api/user/recent?take=${take}`, { token: user.token });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/take must be an integer from 1 to 100/);
  }
});

test('stats and recent are the caller’s own; without authentication 401', async () => {
  const [owner, other] = await Promise.all([signedInUser(), signedInUser()]);
  await upload(owner.token, [png()]);
  expect((await stats(other.token)).filesUploaded).toBe(0);
  expect((await call('GET', '/api/user/recent', { token: other.token })).body).toEqual([]);
  expect((await call('GET', '/api/user/stats')).status).toBe(401);
  expect((await call('GET', '/api/user/recent')).status).toBe(401);
});
