import { jest } from '@jest/globals';
import { getItem } from '#shared/db/client';
import { FILE_PREFIX, fileStatsKey } from '#shared/db/keys/files';
import { folderOwnerKey } from '#shared/db/keys/folders';
import { call } from '../support/client.ts';
import { download, upload, uploadRequest } from '../support/files.ts';
import { partitionItems } from '../support/snapshot.ts';
import { signedInUser } from '../support/users.ts';

/** Folders through the HTTP path (issue 35): Zipline 4.4's `/api/user/folders` routes and `x-zipline-folder`. */

jest.setTimeout(120_000);

type Owner = Awaited<ReturnType<typeof signedInUser>>;

const newFolder = async (owner: Owner, json: Record<string, unknown> = { name: 'Holiday' }) => {
  const created = await call('POST', '/api/user/folders', { token: owner.token, json });
  expect(created.status).toBe(200);
  return created.body as { id: string; name: string; public: boolean; allowUploads: boolean };
};
const files = (owner: Owner, count: number, prefix = 'f') =>
  upload(
    owner.token,
    Array.from({ length: count }, (_, index) => ({
      fileName: `${prefix}-${index}.txt`,
      type: 'text/plain',
      content: `content ${index}`,
    })),
  );
const listed = async (owner: Owner, query: string) => {
  const response = await call('GET', `/api/user/files?${query}`, { token: owner.token });
  expect(response.status).toBe(200);
  return response.body as { page: { id: string; folderId: string | null }[]; total: number; pages: number };
};
const folderGet = (owner: Owner, id: string) =>
  call('GET', `/api/user/folders/${id}`, { token: owner.token });
const stats = async (owner: Owner) => (await getItem(fileStatsKey(owner.id), { consistent: true })) ?? {};

test('create, list, get, rename, make public, open to uploads: the Folder as Zipline answers it', async () => {
  const owner = await signedInUser();
  const folder = await newFolder(owner, { name: '  Holiday 2026  ', isPublic: true });
  expect(folder).toEqual({
    id: expect.stringMatching(/^[0-9a-z]{26}$/),
    name: 'Holiday 2026',
    public: true,
    allowUploads: false,
    createdAt: expect.any(String),
    updatedAt: expect.any(String),
    userId: owner.id,
    parentId: null,
    _count: { files: 0 },
  });
  const second = await newFolder(owner, { name: 'Holiday 2026' });
  expect(
    (await call('GET', '/api/user/folders', { token: owner.token })).body.map((f: { id: string }) => f.id),
  ).toEqual([folder.id, second.id]);
  const patched = await call('PATCH', `/api/user/folders/${folder.id}`, {
    token: owner.token,
    json: { name: 'Trip', isPublic: false, allowUploads: true },
  });
  expect(patched.status).toBe(200);
  expect(patched.body).toMatchObject({ name: 'Trip', public: false, allowUploads: true });
  expect((await folderGet(owner, folder.id)).body).toMatchObject({ name: 'Trip', allowUploads: true });
  for (const json of [
    { name: '' },
    { name: 'a'.repeat(256) },
    { name: 'a\nb' },
    { parentId: folder.id },
    { colour: 1 },
  ]) {
    const refused = await call('PATCH', `/api/user/folders/${folder.id}`, { token: owner.token, json });
    expect(refused.status).toBe(400);
  }
  expect((await folderGet(owner, folder.id)).body.name).toBe('Trip');
});

test("another user's folder is a 404 on every route, and changes nothing", async () => {
  const [owner, other] = await Promise.all([signedInUser(), signedInUser()]);
  const folder = await newFolder(owner);
  const [mine] = await files(other, 1);
  for (const [method, json] of [
    ['GET', undefined],
    ['PATCH', { name: 'taken' }],
    ['PUT', { id: mine?.id }],
    ['DELETE', { delete: 'folder' }],
    ['DELETE', { delete: true }],
  ] as const) {
    const response = await call(method, `/api/user/folders/${folder.id}`, { token: other.token, json });
    expect([method, response.status, response.body.error]).toEqual([method, 404, 'folder not found']);
  }
  expect((await call('GET', `/api/user/files?folder=${folder.id}`, { token: other.token })).status).toBe(404);
  const moved = await call('PATCH', '/api/user/files/transaction', {
    token: other.token,
    json: { files: [mine?.id], folder: folder.id },
  });
  expect(moved.status).toBe(404);
  expect((await folderGet(owner, folder.id)).body).toMatchObject({ name: 'Holiday', _count: { files: 0 } });
  const sent = await uploadRequest(other.token, [{ fileName: 'x.txt', type: 'text/plain', content: 'x' }], {
    'x-zipline-folder': folder.id,
  });
  expect([sent.status, sent.body.error]).toEqual([400, 'x-zipline-folder: folder not found']);
  expect((await stats(other)).files).toBe(1);
});

test('PUT adds a file, the listing by folder pages it, DELETE {delete: file} takes it out', async () => {
  const owner = await signedInUser();
  const [a, b] = [await newFolder(owner, { name: 'A' }), await newFolder(owner, { name: 'B' })];
  const uploaded = await files(owner, 5);
  const ids = uploaded.map((file) => file.id).sort();
  for (const id of ids.slice(0, 3)) {
    const put = await call('PUT', `/api/user/folders/${a.id}`, { token: owner.token, json: { id } });
    expect([put.status, put.body._count]).toEqual([200, expect.any(Object)]);
  }
  expect((await folderGet(owner, a.id)).body._count).toEqual({ files: 3 });
  const first = await listed(owner, `folder=${a.id}&perpage=2`);
  expect(first).toMatchObject({ total: 3, pages: 2 });
  expect(first.page.map((file) => file.id)).toEqual([ids[2], ids[1]]);
  expect(first.page.every((file) => file.folderId === a.id)).toBe(true);
  expect((await listed(owner, `folder=${a.id}&perpage=2&page=2`)).page.map((file) => file.id)).toEqual([
    ids[0],
  ]);
  expect((await listed(owner, `folder=${a.id}&order=asc`)).page.map((file) => file.id)).toEqual(
    ids.slice(0, 3),
  );
  const paged = await call('GET', `/api/user/files?folder=${a.id}&perpage=2`, { token: owner.token });
  const cursor = paged.headers['x-next-cursor'] as string;
  const next = await call('GET', `/api/user/files?folder=${a.id}&perpage=2&cursor=${cursor}`, {
    token: owner.token,
  });
  expect(next.body.page.map((file: { id: string }) => file.id)).toEqual([ids[0]]);
  expect(
    (await call('GET', `/api/user/files?folder=${b.id}&cursor=${cursor}`, { token: owner.token })).status,
  ).toBe(400);
  const byName = await call('GET', `/api/user/files?folder=${a.id}&sortBy=name&order=asc`, {
    token: owner.token,
  });
  const names = byName.body.page.map((file: { name: string }) => file.name);
  expect(names).toEqual(
    [...names].sort((x: string, y: string) => x.toLowerCase().localeCompare(y.toLowerCase())),
  );
  expect(byName.body.total).toBe(3);
  expect(
    (await call('GET', `/api/user/files?folder=${a.id}&favorite=true`, { token: owner.token })).status,
  ).toBe(400);
  // Moved to B: out of A in the same transaction.
  expect(
    (await call('PUT', `/api/user/folders/${b.id}`, { token: owner.token, json: { id: ids[0] } })).status,
  ).toBe(200);
  expect((await folderGet(owner, a.id)).body._count).toEqual({ files: 2 });
  const wrongFolder = await call('DELETE', `/api/user/folders/${a.id}`, {
    token: owner.token,
    json: { delete: 'file', id: ids[0] },
  });
  expect(wrongFolder.status).toBe(404);
  const out = await call('DELETE', `/api/user/folders/${b.id}`, {
    token: owner.token,
    json: { delete: 'file', id: ids[0] },
  });
  expect([out.status, out.body._count]).toEqual([200, { files: 0 }]);
  expect((await call('GET', `/api/user/files/${ids[0]}`, { token: owner.token })).body.folderId).toBeNull();
  // A file DELETE leaves its folder too.
  expect((await call('DELETE', `/api/user/files/${ids[1]}`, { token: owner.token })).status).toBe(200);
  expect((await listed(owner, `folder=${a.id}`)).page.map((file) => file.id)).toEqual([ids[2]]);
  expect((await folderGet(owner, a.id)).body._count).toEqual({ files: 1 });
});

test('x-zipline-folder puts uploads in the folder (direct, chunked, presigned); an unknown folder stores nothing', async () => {
  const owner = await signedInUser();
  const folder = await newFolder(owner);
  const [direct] = await upload(owner.token, [{ fileName: 'd.txt', type: 'text/plain', content: 'd' }], {
    'x-zipline-folder': folder.id,
  });
  const started = await call('POST', '/api/user/files/uploads', {
    token: owner.token,
    json: { originalName: 'p.bin', size: 5, type: 'application/octet-stream' },
    headers: { 'x-zipline-folder': folder.id },
  });
  expect(started.status).toBe(200);
  expect(
    (await fetch(started.body.url, { method: 'PUT', body: 'bytes', headers: started.body.headers })).status,
  ).toBe(200);
  const completed = await call('POST', `/api/user/files/uploads/${started.body.id}/complete`, {
    token: owner.token,
  });
  expect(completed.status).toBe(200);
  const inFolder = await listed(owner, `folder=${folder.id}`);
  expect(inFolder.page.map((file) => file.id).sort()).toEqual(
    [direct?.id, completed.body.files[0].id].sort(),
  );
  const before = await stats(owner);
  for (const value of ['01arz3ndektsv4rrffq69g5fav', 'nope']) {
    const refused = await uploadRequest(
      owner.token,
      [{ fileName: 'x.txt', type: 'text/plain', content: 'x' }],
      {
        'x-zipline-folder': value,
      },
    );
    expect([refused.status, refused.body.error]).toEqual([400, 'x-zipline-folder: folder not found']);
  }
  expect(await stats(owner)).toEqual(before);
  expect(
    (await download(inFolder.page[0]?.id ? `/api/user/files/${inFolder.page[0].id}` : '')).status,
  ).toBeDefined();
});

test('DELETE {delete: folder} keeps the files outside any folder; {delete: true} deletes them with counters and bytes', async () => {
  const owner = await signedInUser();
  const kept = await newFolder(owner, { name: 'kept' });
  const gone = await newFolder(owner, { name: 'gone' });
  const keptFiles = await upload(owner.token, [{ fileName: 'k.txt', type: 'text/plain', content: 'keep' }], {
    'x-zipline-folder': kept.id,
  });
  const goneFiles = await upload(
    owner.token,
    [
      { fileName: 'g1.txt', type: 'text/plain', content: 'gone one' },
      { fileName: 'g2.txt', type: 'text/plain', content: 'gone two' },
    ],
    { 'x-zipline-folder': gone.id },
  );
  expect(await stats(owner)).toMatchObject({ files: 3, bytes: 4 + 8 + 8 });
  const deleted = await call('DELETE', `/api/user/folders/${kept.id}`, {
    token: owner.token,
    json: { delete: 'folder' },
  });
  expect([deleted.status, deleted.body.id]).toEqual([200, kept.id]);
  expect((await folderGet(owner, kept.id)).status).toBe(404);
  expect(
    (await call('GET', `/api/user/files/${keptFiles[0]?.id}`, { token: owner.token })).body.folderId,
  ).toBeNull();
  const all = await call('DELETE', `/api/user/folders/${gone.id}`, {
    token: owner.token,
    json: { delete: true },
  });
  expect(all.status).toBe(200);
  expect(await stats(owner)).toMatchObject({ files: 1, bytes: 4 });
  for (const file of goneFiles) {
    expect((await call('GET', `/api/user/files/${file.id}`, { token: owner.token })).status).toBe(404);
    expect((await download(file.url)).status).toBe(404);
  }
  expect(await getItem(folderOwnerKey(gone.id))).toBeUndefined();
  expect((await call('GET', '/api/user/folders', { token: owner.token })).body).toEqual([]);
  const left = (await partitionItems(owner.id)).filter((item) => String(item.sk).startsWith(FILE_PREFIX));
  expect(left.map((item) => item.id)).toEqual([keptFiles[0]?.id]);
});

test("a folder's sorted listing follows a file's PATCH, its views and a move (its member item's keys)", async () => {
  const owner = await signedInUser();
  const folder = (await call('POST', '/api/user/folders', { token: owner.token, json: { name: 'Sorted' } }))
    .body;
  const files = await upload(
    owner.token,
    ['b.txt', 'c.txt', 'd.txt'].map((fileName) => ({ fileName, type: 'text/plain', content: fileName })),
    { 'x-zipline-folder': folder.id },
  );
  const order = async (sortBy: string, order = 'asc') =>
    (
      await call('GET', `/api/user/files?folder=${folder.id}&sortBy=${sortBy}&order=${order}`, {
        token: owner.token,
      })
    ).body.page.map((file: { id: string }) => file.id);
  const [b, c, d] = files.map((file) => file.id) as [string, string, string];
  expect(await order('originalName')).toEqual([b, c, d]);
  await call('PATCH', `/api/user/files/${d}`, { token: owner.token, json: { originalName: 'a.txt' } });
  expect(await order('originalName')).toEqual([d, b, c]);
  await call('PATCH', `/api/user/files/${c}`, { token: owner.token, json: { favorite: true } });
  expect(await order('favorite', 'desc')).toEqual([c, ...[d, b].sort().reverse()]);
  for (let view = 0; view < 2; view++) await download(files[0]?.url as string);
  expect((await order('views', 'desc'))[0]).toBe(b);
  // Moved out and back: the member item is written again with the file's current keys.
  await call('PATCH', '/api/user/files/transaction', {
    token: owner.token,
    json: { files: [b], folder: null },
  });
  expect(await order('views', 'desc')).not.toContain(b);
  await call('PUT', `/api/user/folders/${folder.id}`, { token: owner.token, json: { id: b } });
  expect((await order('views', 'desc'))[0]).toBe(b);
  expect(await order('originalName')).toEqual([d, b, c]);
});
