import { jest } from '@jest/globals';
import { getItem } from '#shared/db/client';
import { fileStatsKey } from '#shared/db/keys/files';
import { call } from '../support/client.ts';
import { uploadMany } from '../support/files.ts';
import { signedInUser } from '../support/users.ts';

/** `PATCH`/`DELETE /api/user/files/transaction` (issue 35): each file once or not at all, counters exact. */

jest.setTimeout(180_000);

type Owner = Awaited<ReturnType<typeof signedInUser>>;

const stats = async (owner: Owner) => (await getItem(fileStatsKey(owner.id), { consistent: true })) ?? {};
const bulk = (owner: Owner, method: 'PATCH' | 'DELETE', json: unknown) =>
  call(method, '/api/user/files/transaction', { token: owner.token, json });

test("favourite and move in bulk: counted once, another user's files skipped and untouched", async () => {
  const [owner, other] = await Promise.all([signedInUser(), signedInUser()]);
  const ids = await uploadMany(owner.token, 40, 'image');
  const [theirs] = await uploadMany(other.token, 1, 'image');
  const favourite = await bulk(owner, 'PATCH', { files: [...ids, theirs, 'nope'], favorite: true });
  expect(favourite.status).toBe(200);
  expect(favourite.body.count).toBe(40);
  expect(favourite.body.missing.sort()).toEqual([theirs, 'nope'].sort());
  expect(await stats(owner)).toMatchObject({ files: 40, favorites: 40, favoriteMedia: 40 });
  expect((await bulk(owner, 'PATCH', { files: ids.slice(0, 10), favorite: true })).body.count).toBe(0);
  expect((await bulk(owner, 'PATCH', { files: ids.slice(0, 10), favorite: false })).body.count).toBe(10);
  expect(await stats(owner)).toMatchObject({ favorites: 30 });
  expect((await call('GET', `/api/user/files/${theirs}`, { token: other.token })).body.favorite).toBe(false);

  const folder = (await call('POST', '/api/user/folders', { token: owner.token, json: { name: 'Bulk' } }))
    .body;
  const moved = await bulk(owner, 'PATCH', { files: ids, folder: folder.id });
  expect(moved.body).toEqual({ count: 40, missing: [], failed: [], name: 'Bulk' });
  expect((await call('GET', `/api/user/folders/${folder.id}`, { token: owner.token })).body._count).toEqual({
    files: 40,
  });
  const out = await bulk(owner, 'PATCH', { files: ids.slice(0, 15), folder: null });
  expect(out.body.count).toBe(15);
  expect((await call('GET', `/api/user/folders/${folder.id}`, { token: owner.token })).body._count).toEqual({
    files: 25,
  });
  for (const json of [
    { files: ids },
    { files: ids, favorite: true, folder: null },
    { files: [] },
    { files: Array.from({ length: 1001 }, () => ids[0]) },
    { files: ids, tags: [] },
  ]) {
    expect((await bulk(owner, 'PATCH', json)).status).toBe(400);
  }
  expect((await bulk(other, 'PATCH', { files: [theirs], folder: folder.id })).status).toBe(404);
});

test('a bulk delete racing single deletes and a folder move: each file deleted once, counters and folder count exact', async () => {
  const owner = await signedInUser();
  const ids = await uploadMany(owner.token, 60, 'image');
  const folder = (await call('POST', '/api/user/folders', { token: owner.token, json: { name: 'Race' } }))
    .body;
  expect((await bulk(owner, 'PATCH', { files: ids, folder: folder.id })).body.count).toBe(60);
  const singles = ids.filter((_, index) => index % 3 === 0);
  const [deleted, ...single] = await Promise.all([
    bulk(owner, 'DELETE', { files: ids }),
    ...singles.map((id) => call('DELETE', `/api/user/files/${id}`, { token: owner.token })),
    bulk(owner, 'PATCH', { files: ids, folder: null }),
  ]);
  const moved = single.pop();
  expect(deleted?.status).toBe(200);
  const singleDeleted = single.filter((response) => response.status === 200).length;
  expect(single.every((response) => response.status === 200 || response.status === 404)).toBe(true);
  expect(deleted?.body.count + singleDeleted).toBe(60);
  expect(deleted?.body.missing.length).toBe(singleDeleted);
  expect(moved?.status).toBe(200);
  expect(await stats(owner)).toMatchObject({ files: 0, bytes: 0, favorites: 0, media: 0 });
  expect((await call('GET', `/api/user/folders/${folder.id}`, { token: owner.token })).body._count).toEqual({
    files: 0,
  });
  expect(
    (await call('GET', `/api/user/files?folder=${folder.id}`, { token: owner.token })).body.page,
  ).toEqual([]);
});
