import { randomBytes } from 'node:crypto';
import { call } from '../support/client.ts';
import { download, upload, uploadRequest } from '../support/files.ts';
import { changedKeys, partitionItems, tableSnapshot } from '../support/snapshot.ts';
import { signedInUser } from '../support/users.ts';
import { type Admin, importedUser, importPut, signInImported, ziplineId } from '../support/zipline-import.ts';

/**
 * Files of a Zipline import (issue 40) through the HTTP path: the start's presigned PUT, the
 * completion, the public name and bytes served back, idempotency, collisions, the counters.
 */
let admin: Admin;
beforeAll(async () => {
  admin = await signedInUser('SUPERADMIN');
});

const complete = (zid: string, owner: string) =>
  call('POST', `/api/import/zipline/files/${zid}/complete`, { cookie: admin.cookie, json: { owner } });

/** Starts, PUTs the bytes to the presigned URL and completes: the completion's answer. */
async function importFile(zid: string, body: Record<string, unknown>, bytes: Buffer) {
  const started = await importPut(admin, 'files', zid, { size: bytes.length, ...body });
  expect([started.status, started.text]).toEqual([202, expect.any(String)]);
  const { url, headers } = started.body.upload;
  const put = await fetch(url, { method: 'PUT', body: bytes, headers });
  expect(put.status).toBe(200);
  return complete(zid, String(body.owner));
}

const uniqueName = (extension: string) => `zl${randomBytes(5).toString('hex')}${extension}`;

test('a file keeps its public name, bytes, views, favourite, dates, folder and tags; a second import changes nothing', async () => {
  const owner = await importedUser(admin, { view: { enabled: true } });
  const folder = ziplineId();
  const tag = ziplineId();
  expect((await importPut(admin, 'folders', folder, { owner: owner.zid, name: 'Screens' })).status).toBe(201);
  expect(
    (await importPut(admin, 'tags', tag, { owner: owner.zid, name: 'work', color: '#00ff00' })).status,
  ).toBe(201);
  const bytes = randomBytes(70_000);
  const name = uniqueName('.bin');
  const zid = ziplineId();
  const body = {
    owner: owner.zid,
    name,
    originalName: 'holiday.bin',
    type: 'application/octet-stream',
    views: 12,
    maxViews: 100,
    favorite: true,
    folder,
    tags: [tag],
    createdAt: '2022-02-02T02:02:02.000Z',
  };
  const done = await importFile(zid, body, bytes);
  expect(done.status).toBe(201);
  expect(done.body).toEqual({ created: true, id: expect.any(String), name });
  const before = await tableSnapshot();
  expect((await importPut(admin, 'files', zid, { ...body, size: bytes.length })).body).toEqual({
    ...done.body,
    created: false,
  });
  expect((await complete(zid, owner.zid)).body).toEqual({ ...done.body, created: false });
  expect(changedKeys(before, await tableSnapshot())).toEqual([]);
  const raw = await download(`/raw/${name}`);
  expect(raw.status).toBe(200);
  expect(Buffer.compare(raw.bytes as Buffer, bytes)).toBe(0);
  const signedIn = await signInImported(admin, owner);
  const file = await call('GET', `/api/user/files/${done.body.id}`, { token: signedIn.token });
  expect(file.body).toMatchObject({
    name,
    originalName: 'holiday.bin',
    size: bytes.length,
    views: 13,
    maxViews: 100,
    favorite: true,
    createdAt: body.createdAt,
    folderId: expect.any(String),
    tags: [expect.objectContaining({ name: 'work' })],
  });
  expect((await call('GET', `/u/${name}`)).status).toBeLessThan(400);
  expect((await call('GET', `/view/${name}`)).status).toBe(200);
});

test('counters equal a recount after imports beside ordinary uploads', async () => {
  const owner = await importedUser(admin, {
    quota: { filesQuota: 'BY_FILES', maxBytes: null, maxFiles: 1, maxUrls: null },
  });
  const files = [
    { type: 'image/png', favorite: true, bytes: randomBytes(10) },
    { type: 'text/plain', favorite: false, bytes: randomBytes(300) },
    { type: 'text/plain', favorite: true, bytes: Buffer.alloc(0) },
  ];
  for (const file of files) {
    const done = await importFile(
      ziplineId(),
      { owner: owner.zid, name: uniqueName('.x'), type: file.type, favorite: file.favorite },
      file.bytes,
    );
    expect(done.status).toBe(201);
  }
  const signedIn = await signInImported(admin, owner);
  // The quota (1 file) did not refuse the import; the owner's next upload is refused by it.
  const over = await uploadRequest(signedIn.token, [{ fileName: 'a.txt', type: 'text/plain', content: 'x' }]);
  expect(over.status).toBe(413);
  const stats = (await call('GET', '/api/user/stats', { token: signedIn.token })).body;
  const listed = (await call('GET', '/api/user/files?perpage=100', { token: signedIn.token })).body.page as {
    size: number;
    favorite: boolean;
    type: string;
  }[];
  expect(stats).toMatchObject({
    filesUploaded: listed.length,
    favoriteFiles: listed.filter((file) => file.favorite).length,
    storageUsed: listed.reduce((sum, file) => sum + file.size, 0),
    sortTypeCount: { 'image/png': 1, 'text/plain': 2 },
  });
  expect(listed.length).toBe(3);
  const counters = (await partitionItems(owner.id)).find((item) => item.sk === 'FILESTATS');
  expect(counters).toMatchObject({ pendingFiles: 0, pendingBytes: 0 });
});

test('a name another file has is a 409 naming it, never overwritten', async () => {
  const other = await signedInUser();
  const name = uniqueName('.txt');
  const uploaded = await upload(other.token, [{ fileName: 'x.txt', type: 'text/plain', content: 'mine' }], {
    'x-zipline-filename': name,
  });
  expect(uploaded[0]?.name).toBe(name);
  const owner = await importedUser(admin);
  const before = await tableSnapshot();
  const refused = await importPut(admin, 'files', ziplineId(), {
    owner: owner.zid,
    name,
    type: 'text/plain',
    size: 3,
  });
  expect([refused.status, refused.body.name]).toEqual([409, name]);
  expect(changedKeys(before, await tableSnapshot())).toEqual([]);
  expect(String((await download(`/raw/${name}`)).bytes)).toBe('mine');
});

test('an interrupted file resumes by a new PUT; a wrong size is refused and drops the upload', async () => {
  const owner = await importedUser(admin);
  const zid = ziplineId();
  const bytes = randomBytes(1000);
  const body = {
    owner: owner.zid,
    name: uniqueName('.bin'),
    type: 'application/octet-stream',
    size: bytes.length,
  };
  expect((await importPut(admin, 'files', zid, body)).status).toBe(202);
  expect((await complete(zid, owner.zid)).status).toBe(400);
  const again = await importPut(admin, 'files', zid, body);
  expect(again.status).toBe(202);
  const short = await fetch(again.body.upload.url, {
    method: 'PUT',
    body: bytes.subarray(0, 10),
    headers: again.body.upload.headers,
  });
  expect(short.status).toBe(200);
  const wrong = await complete(zid, owner.zid);
  expect([wrong.status, wrong.body.error]).toEqual([400, expect.stringMatching(/10 bytes/)]);
  expect((await complete(zid, owner.zid)).status).toBe(404);
  expect((await importFile(zid, body, bytes)).status).toBe(201);
  const pending = (await partitionItems(owner.id)).filter((item) => String(item.sk).startsWith('UPLOAD#'));
  expect(pending).toEqual([]);
  expect(Buffer.compare((await download(`/raw/${body.name}`)).bytes as Buffer, bytes)).toBe(0);
});

test('a password-protected file stays protected (locked) until its owner sets a new password', async () => {
  const owner = await importedUser(admin);
  const name = uniqueName('.txt');
  const argon2 = '$argon2id$v=19$m=65536,t=3,p=4$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA';
  const done = await importFile(
    ziplineId(),
    { owner: owner.zid, name, type: 'text/plain', password: argon2 },
    Buffer.from('secret'),
  );
  expect(done.status).toBe(201);
  const locked = await call('GET', `/raw/${name}`);
  expect(locked.status).toBeGreaterThanOrEqual(400);
  expect(locked.text).not.toContain('secret');
  expect((await call('GET', `/raw/${name}?pw=${encodeURIComponent(argon2)}`)).status).toBeGreaterThanOrEqual(
    400,
  );
  const signedIn = await signInImported(admin, owner);
  const patched = await call('PATCH', `/api/user/files/${done.body.id}`, {
    token: signedIn.token,
    json: { password: 'new one' },
  });
  expect(patched.status).toBe(200);
  expect(String((await download(`/raw/${name}?pw=new%20one`)).bytes)).toBe('secret');
});
