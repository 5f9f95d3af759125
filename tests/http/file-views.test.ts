import { forEachConcurrently } from '#shared/concurrency';
import { getItem } from '#shared/db/client';
import { FILE_ORDER_INDEXES, fileKey } from '#shared/db/keys/files';
import { indexKeyAttributes } from '#shared/db/keys/partitions';
import { POPULAR_AFTER } from '#shared/files/serve/popular-views';
import { counterKeys } from '#shared/views/counters';
import { call } from '../support/client.ts';
import { expireFile, upload } from '../support/files.ts';
import { PNG_1X1 } from '../support/pixels.ts';
import { recordSdkCalls } from '../support/sdk-calls.ts';
import { streamDrained } from '../support/table-stream.ts';
import { signedInUser } from '../support/users.ts';

/**
 * File views through the HTTP path (issues 34 and 36, docs/scale.md "Views"): a file counts its first
 * `POPULAR_AFTER` views on its own item, then on sharded counters as a short link does, never on its
 * item again; its views stay exact in the API, `maxViews` stays exact under concurrent requests
 * across the switch, and every view reaches the owner's stats (through the table's stream, drained
 * before each read of them), while a view itself writes only its count.
 */
const recorder = recordSdkCalls();

type User = Awaited<ReturnType<typeof signedInUser>>;

async function viewer(): Promise<User> {
  const user = await signedInUser();
  const patch = await call('PATCH', '/api/user', {
    token: user.token,
    json: { view: { enabled: true, embed: true } },
  });
  expect(patch.status).toBe(200);
  return user;
}

async function image(owner: User, headers: Record<string, string> = {}) {
  const [file] = await upload(
    owner.token,
    [{ fileName: 'hot.png', type: 'image/png', content: PNG_1X1 }],
    headers,
  );
  return file as { id: string; name: string };
}

const viewsOf = async (owner: User, id: string) =>
  (await call('GET', `/api/user/files/${id}`, { token: owner.token })).body.views as number;

/** The owner's stats once the table's stream has handed every change so far to the totals. */
const stats = async (owner: User) => {
  await streamDrained();
  return (await call('GET', '/api/user/stats', { token: owner.token })).body;
};

/** `count` views, 8 at a time, alternating downloads, view pages and `/u/` links; each must be served. */
async function view(name: string, count: number) {
  const paths = [`/raw/${name}`, `/view/${name}`, `/u/${name}`];
  await forEachConcurrently(
    Array.from({ length: count }, (_, index) => index),
    8,
    async (index) => {
      const response = await call('GET', paths[index % paths.length] as string);
      expect(response.status).toBe(200);
    },
  );
}

/** The recorded UpdateItems: the partition key each went to, and the attributes it names. */
const updates = () =>
  recorder.calls
    .filter((recorded) => recorded.command === 'UpdateItemCommand')
    .map((recorded) => ({
      pk: String((recorded.input.Key as { pk?: string }).pk),
      names: Object.values(recorded.input.ExpressionAttributeNames ?? {}) as string[],
    }));
const writtenKeys = () => updates().map((update) => update.pk);

test('a view of a file, a view page and a link followed twice: the stats say so; HEAD and oEmbed count nothing', async () => {
  const owner = await viewer();
  const stranger = await viewer();
  const file = await image(owner);
  const link = await call('POST', '/api/user/urls', {
    token: owner.token,
    json: { destination: 'https://example.com/followed' },
  });
  for (const path of [`/raw/${file.name}`, `/view/${file.name}`, `/u/${file.name}`])
    expect((await call('GET', path)).status).toBe(200);
  expect((await call('HEAD', `/raw/${file.name}`)).status).toBe(200);
  expect((await call('GET', `/api/oembed/${file.name}`)).status).toBe(200);
  for (let visit = 0; visit < 2; visit++)
    expect((await call('GET', `/go/${link.body.code}`)).status).toBe(302);
  expect(await stats(owner)).toMatchObject({ views: 3, avgViews: 3, urlViews: 2, filesUploaded: 1 });
  expect(await viewsOf(owner, file.id)).toBe(3);
  expect(await stats(stranger)).toMatchObject({ views: 0, urlViews: 0 });
}, 180_000);

test("a popular file: past POPULAR_AFTER its views go to its counters, never its item's count, and every count shows", async () => {
  const owner = await viewer();
  const file = await image(owner);
  await view(file.name, POPULAR_AFTER);
  recorder.reset();
  await view(file.name, 30);
  const keys = writtenKeys();
  // The item's count stays; only its place in the views order moves (its views-index keys).
  const onItem = updates().filter((update) => update.pk.startsWith('USER#'));
  expect(onItem.filter((update) => update.names.includes('views'))).toEqual([]);
  expect(onItem.every((update) => update.names.includes('gsi9sk'))).toBe(true);
  expect(keys.filter((pk) => pk.startsWith(`FILEVIEWS#${file.id}#`))).toHaveLength(30);
  expect(keys.filter((pk) => pk.startsWith('VIEWTOTALS#'))).toEqual([]);
  // Views of an unlimited file spread over its shards (at 30 views all ten but a vanishing chance).
  expect(new Set(keys.filter((pk) => pk.startsWith('FILEVIEWS#'))).size).toBeGreaterThanOrEqual(5);
  const total = POPULAR_AFTER + 30;
  expect(await viewsOf(owner, file.id)).toBe(total);
  const listed = await call('GET', '/api/user/files?sortBy=views&order=desc', { token: owner.token });
  expect(listed.body.page[0]).toMatchObject({ id: file.id, views: total });
  // The views order follows the counters (each shard's first ten views move it): past 100.
  const { sk } = indexKeyAttributes(FILE_ORDER_INDEXES.byViews);
  const entry = String((await getItem(fileKey(owner.id, file.id), { consistent: true }))?.[sk]);
  expect(Number(entry.slice(0, 15))).toBeGreaterThan(POPULAR_AFTER);
  const recent = await call('GET', '/api/user/recent?take=1', { token: owner.token });
  expect(recent.body[0]).toMatchObject({ id: file.id, views: total });
  expect(await stats(owner)).toMatchObject({ views: total });
  // Deleting it answers its views, and takes its counters, and its views leave the owner's totals.
  const deleted = await call('DELETE', `/api/user/files/${file.id}`, { token: owner.token });
  expect(deleted.body.views).toBe(total);
  expect(await stats(owner)).toMatchObject({ views: 0, filesUploaded: 0 });
}, 180_000);

test("a popular file's view and a link's redirect: each one read of the subject and one write, its counter", async () => {
  const owner = await viewer();
  const file = await image(owner);
  await view(file.name, POPULAR_AFTER);
  const link = await call('POST', '/api/user/urls', {
    token: owner.token,
    json: { destination: 'https://example.com/once' },
  });
  recorder.reset();
  expect((await call('GET', `/raw/${file.name}`)).status).toBe(200);
  // The name claim and the file, then its counter: one write (the views order moves on a counter's
  // first ten views only, and this counter may be at its first: at most that one more).
  const fileWrites = updates().filter((update) => !update.pk.startsWith('USER#'));
  expect(fileWrites.map((update) => update.pk)).toEqual([expect.stringMatching(`^FILEVIEWS#${file.id}#`)]);
  expect(recorder.calls.filter((recorded) => recorded.command === 'GetItemCommand')).toHaveLength(2);
  recorder.reset();
  expect((await call('GET', `/go/${link.body.code}`)).status).toBe(302);
  expect(recorder.calls.map((recorded) => recorded.command)).toEqual(['GetItemCommand', 'UpdateItemCommand']);
  expect(writtenKeys()).toEqual([expect.stringMatching(`^LINKVIEWS#${link.body.id}#`)]);
  expect(await stats(owner)).toMatchObject({ views: POPULAR_AFTER + 1, urlViews: 1 });
  // The link deleted: its views leave the totals with its counters.
  expect((await call('DELETE', `/api/user/urls/${link.body.id}`, { token: owner.token })).status).toBe(200);
  expect(await stats(owner)).toMatchObject({ views: POPULAR_AFTER + 1, urlViews: 0 });
}, 180_000);

test("the bulk delete and the expiry sweep take a popular file's counters, and its views leave the totals", async () => {
  const owner = await viewer();
  const [bulk, expiring, kept] = [await image(owner), await image(owner), await image(owner)];
  for (const file of [bulk, expiring]) await view(file.name, POPULAR_AFTER + 12);
  await view(kept.name, 2);
  expect(await stats(owner)).toMatchObject({ views: 2 * (POPULAR_AFTER + 12) + 2 });
  const counters = async (fileId: string) =>
    (await Promise.all(counterKeys('file', fileId).map((key) => getItem(key, { consistent: true })))).filter(
      (item) => item !== undefined,
    );
  expect(await counters(bulk.id)).not.toEqual([]);
  const deleted = await call('DELETE', '/api/user/files/transaction', {
    token: owner.token,
    json: { files: [bulk.id] },
  });
  expect(deleted.status).toBe(200);
  expect(await counters(bulk.id)).toEqual([]);
  expect(await stats(owner)).toMatchObject({ views: POPULAR_AFTER + 12 + 2 });
  await expireFile(owner.id, expiring.id);
  const { sweepExpiredFiles } = await import('#shared/files/expiry/sweep');
  expect(await sweepExpiredFiles()).toMatchObject({ expired: 1, failed: [] });
  expect(await counters(expiring.id)).toEqual([]);
  expect(await stats(owner)).toMatchObject({ views: 2, filesUploaded: 1 });
}, 180_000);

test('maxViews is exact across the switch: one view left, 50 concurrent requests, one served', async () => {
  const owner = await viewer();
  const file = await image(owner, { 'x-zipline-max-views': String(POPULAR_AFTER + 1) });
  await view(file.name, POPULAR_AFTER);
  const paths = [`/raw/${file.name}`, `/view/${file.name}`, `/u/${file.name}`];
  const racing = await Promise.all(
    Array.from({ length: 50 }, (_, index) => call('GET', paths[index % paths.length] as string)),
  );
  expect(racing.filter((response) => response.status === 200)).toHaveLength(1);
  expect(racing.filter((response) => response.status === 404)).toHaveLength(49);
  expect(await viewsOf(owner, file.id)).toBe(POPULAR_AFTER + 1);
  expect(await stats(owner)).toMatchObject({ views: POPULAR_AFTER + 1 });
  // A limit raised later, on a popular file that had views on its shards too: exactly that many more.
  expect(
    (await call('PATCH', `/api/user/files/${file.id}`, { token: owner.token, json: { maxViews: null } }))
      .status,
  ).toBe(200);
  await view(file.name, 10);
  const patched = await call('PATCH', `/api/user/files/${file.id}`, {
    token: owner.token,
    json: { maxViews: POPULAR_AFTER + 1 + 10 + 3 },
  });
  expect(patched.body.views).toBe(POPULAR_AFTER + 11);
  const more = await Promise.all(Array.from({ length: 20 }, () => call('GET', `/raw/${file.name}`)));
  expect(more.filter((response) => response.status === 200)).toHaveLength(3);
  expect(await viewsOf(owner, file.id)).toBe(POPULAR_AFTER + 14);
}, 180_000);

test('maxViews 1: of 50 concurrent requests on the three paths exactly one is served, and counted once', async () => {
  const owner = await viewer();
  const file = await image(owner, { 'x-zipline-max-views': '1' });
  const paths = [`/raw/${file.name}`, `/view/${file.name}`, `/u/${file.name}`];
  const racing = await Promise.all(
    Array.from({ length: 50 }, (_, index) => call('GET', paths[index % paths.length] as string)),
  );
  expect(racing.filter((response) => response.status === 200)).toHaveLength(1);
  expect(await viewsOf(owner, file.id)).toBe(1);
  expect(await stats(owner)).toMatchObject({ views: 1 });
}, 180_000);
