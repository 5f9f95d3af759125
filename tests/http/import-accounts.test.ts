import { call } from '../support/client.ts';
import { changedKeys, tableSnapshot } from '../support/snapshot.ts';
import { signedInUser } from '../support/users.ts';
import { type Admin, importedUser, importPut, signInImported, ziplineId } from '../support/zipline-import.ts';

/**
 * The Zipline import's routes for users, folders, tags and short links (issue 40) through the HTTP
 * path: a SUPERADMIN's session only, idempotent by the Zipline id (a second PUT changes nothing),
 * collisions reported, bad input refused with nothing written.
 */
let admin: Admin;
beforeAll(async () => {
  admin = await signedInUser('SUPERADMIN');
});

test('only a SUPERADMIN session may import: a token (even its own) 403, an ADMIN 403, nobody 401', async () => {
  const body = { username: 'never-made', role: 'USER' };
  const id = ziplineId();
  const asToken = await call('PUT', `/api/import/zipline/users/${id}`, { token: admin.token, json: body });
  expect(asToken.status).toBe(403);
  expect(asToken.body.error).toMatch(/session/);
  const otherAdmin = await signedInUser('ADMIN');
  expect((await importPut(otherAdmin, 'users', id, body)).status).toBe(403);
  expect((await call('PUT', `/api/import/zipline/users/${id}`, { json: body })).status).toBe(401);
  expect((await call('GET', '/api/import/zipline/status', { token: admin.token })).status).toBe(403);
  expect((await call('GET', '/api/import/zipline/status', { cookie: otherAdmin.cookie })).status).toBe(403);
  expect(
    (await call('POST', '/api/auth/login', { json: { username: 'never-made', password: 'x' } })).status,
  ).toBe(401);
});

test('a user is imported once: 201, then 200 with the same id and not one item changed', async () => {
  const zid = ziplineId();
  const body = {
    username: `zl-once-${zid.slice(-6)}`,
    role: 'SUPERADMIN',
    quota: { filesQuota: 'BY_BYTES', maxBytes: '1gb', maxFiles: null, maxUrls: 5 },
    view: { enabled: true, embedColor: '#123456', align: 'center' },
    createdAt: '2023-05-01T10:00:00.000Z',
  };
  const first = await importPut(admin, 'users', zid, body);
  expect(first.status).toBe(201);
  expect(first.body).toEqual({
    created: true,
    id: expect.any(String),
    username: body.username,
    role: 'ADMIN',
  });
  const before = await tableSnapshot();
  const again = await importPut(admin, 'users', zid, { ...body, username: 'something-else' });
  expect(again.status).toBe(200);
  expect(again.body).toEqual({ ...first.body, created: false });
  expect(changedKeys(before, await tableSnapshot())).toEqual([]);
  const shown = await call('GET', `/api/users/${first.body.id}`, { cookie: admin.cookie });
  expect(shown.body).toMatchObject({
    role: 'ADMIN',
    createdAt: body.createdAt,
    quota: { filesQuota: 'BY_BYTES', maxBytes: '1073741824', maxUrls: 5 },
    view: body.view,
  });
});

test('an imported user has no password until an administrator sets one', async () => {
  const user = await importedUser(admin);
  for (const password of ['', 'anything at all'])
    expect(
      (await call('POST', '/api/auth/login', { json: { username: user.username, password } })).status,
    ).not.toBe(200);
  const signedIn = await signInImported(admin, user);
  expect((await call('GET', '/api/user', { token: signedIn.token })).body.user.username).toBe(user.username);
});

test('a username taken here is a 409 naming it; adoptExisting maps onto that account instead', async () => {
  const existing = await signedInUser();
  const before = await tableSnapshot();
  const refused = await importPut(admin, 'users', ziplineId(), { username: existing.username, role: 'USER' });
  expect(refused.status).toBe(409);
  expect(refused.body.username).toBe(existing.username);
  expect(changedKeys(before, await tableSnapshot())).toEqual([]);
  const adopted = await importPut(admin, 'users', ziplineId(), {
    username: existing.username,
    role: 'ADMIN',
    adoptExisting: true,
  });
  expect(adopted.status).toBe(201);
  expect(adopted.body).toMatchObject({ id: existing.id, role: 'USER' });
});

test('bad input is a 400 naming the field, and writes nothing', async () => {
  const owner = await importedUser(admin);
  const cases: [string, unknown][] = [
    ['users', { username: 'ok-name', role: 'OWNER' }],
    ['users', { username: 'ok-name', role: 'USER', password: 'no' }],
    ['users', { username: 'ok-name', role: 'USER', view: { unknownFlag: true } }],
    ['folders', { owner: owner.zid, name: '' }],
    ['folders', { owner: ziplineId(), name: 'x' }],
    ['tags', { owner: owner.zid, name: 'x', color: 'red' }],
    ['urls', { owner: owner.zid, code: 'abc', destination: 'javascript:alert(1)' }],
    ['urls', { owner: owner.zid, code: 'a/b', destination: 'https://example.com' }],
    ['files', { owner: owner.zid, name: 'a/b.png', type: 'image/png', size: 1 }],
    ['files', { owner: owner.zid, name: 'a.png', type: 'image/png', size: -1 }],
  ];
  const before = await tableSnapshot();
  for (const [kind, body] of cases) {
    const answer = await importPut(admin, kind, ziplineId(), body);
    expect([kind, answer.status]).toEqual([kind, 400]);
    expect(answer.body.error).toEqual(expect.any(String));
  }
  expect((await importPut(admin, 'users', 'not-a-cuid', { username: 'x', role: 'USER' })).status).toBe(404);
  expect(changedKeys(before, await tableSnapshot())).toEqual([]);
});

test('folders and tags are imported once into their owner’s library', async () => {
  const owner = await importedUser(admin);
  const folderId = ziplineId();
  const folder = await importPut(admin, 'folders', folderId, {
    owner: owner.zid,
    name: 'Holiday',
    public: true,
  });
  expect(folder.status).toBe(201);
  const tagId = ziplineId();
  const tag = await importPut(admin, 'tags', tagId, { owner: owner.zid, name: 'cats', color: '#ff0000' });
  expect(tag.status).toBe(201);
  const before = await tableSnapshot();
  expect((await importPut(admin, 'folders', folderId, { owner: owner.zid, name: 'Other' })).body).toEqual({
    created: false,
    id: folder.body.id,
  });
  expect(
    (await importPut(admin, 'tags', tagId, { owner: owner.zid, name: 'dogs', color: '#000' })).status,
  ).toBe(200);
  expect(changedKeys(before, await tableSnapshot())).toEqual([]);
  const clash = await importPut(admin, 'tags', ziplineId(), {
    owner: owner.zid,
    name: 'CATS',
    color: '#fff',
  });
  expect(clash.status).toBe(409);
  expect(clash.body.name).toBe('CATS');
  const signedIn = await signInImported(admin, owner);
  const folders = await call('GET', '/api/user/folders', { token: signedIn.token });
  expect(folders.body).toEqual([
    expect.objectContaining({ id: folder.body.id, name: 'Holiday', public: true }),
  ]);
  const tags = await call('GET', '/api/user/tags', { token: signedIn.token });
  expect(tags.body).toEqual([expect.objectContaining({ id: tag.body.id, name: 'cats', color: '#ff0000' })]);
});

test('a short link keeps its code, vanity and views; a taken code or vanity is a 409 naming it', async () => {
  const owner = await importedUser(admin);
  const code = `Ab${ziplineId().slice(-6)}`;
  const vanity = `zl-${code}`;
  const body = {
    owner: owner.zid,
    code,
    vanity,
    destination: 'https://example.com/z',
    views: 7,
    maxViews: 9,
  };
  const zid = ziplineId();
  const first = await importPut(admin, 'urls', zid, body);
  expect(first.status).toBe(201);
  expect(first.body).toEqual({ created: true, id: expect.any(String), code: code.toLowerCase(), vanity });
  const before = await tableSnapshot();
  expect((await importPut(admin, 'urls', zid, body)).body).toEqual({ ...first.body, created: false });
  expect(changedKeys(before, await tableSnapshot())).toEqual([]);
  for (const name of [code, vanity]) {
    const go = await call('GET', `/go/${name}`);
    expect([go.status, go.headers.location]).toEqual([302, 'https://example.com/z']);
  }
  // 7 views imported, 2 redirects above: the limit of 9 is reached.
  expect((await call('GET', `/go/${code}`)).status).toBe(404);
  const taken = await importPut(admin, 'urls', ziplineId(), { ...body, code: 'other1' });
  expect([taken.status, taken.body.name]).toEqual([409, vanity]);
  const sameCode = await importPut(admin, 'urls', ziplineId(), {
    ...body,
    vanity: null,
    code: code.toUpperCase(),
  });
  expect([sameCode.status, sameCode.body.name]).toEqual([409, code.toUpperCase()]);
  const signedIn = await signInImported(admin, owner);
  const listed = await call('GET', `/api/user/urls/${first.body.id}`, { token: signedIn.token });
  expect(listed.body).toMatchObject({ code: code.toLowerCase(), vanity, views: 9, maxViews: 9 });
  const stats = await call('GET', '/api/user/stats', { token: signedIn.token });
  expect(stats.body.urlsCreated).toBe(1);
});

test('the status counts what has been imported, per kind', async () => {
  const before = (await call('GET', '/api/import/zipline/status', { cookie: admin.cookie })).body;
  const owner = await importedUser(admin);
  await importPut(admin, 'folders', ziplineId(), { owner: owner.zid, name: 'one' });
  const after = await call('GET', '/api/import/zipline/status', { cookie: admin.cookie });
  expect(after.status).toBe(200);
  expect(after.body).toEqual({ ...before, users: before.users + 1, folders: before.folders + 1 });
});

test('concurrent imports of one Zipline id make one entity: one 201, the others 200 with its id', async () => {
  const zid = ziplineId();
  const body = { username: `zl-race-${zid.slice(-6)}`, role: 'USER' };
  const answers = await Promise.all([1, 2, 3].map(() => importPut(admin, 'users', zid, body)));
  expect(answers.map((answer) => answer.status).sort()).toEqual([200, 200, 201]);
  expect(new Set(answers.map((answer) => answer.body.id)).size).toBe(1);
  const owner = answers[0]?.body.id as string;
  const link = ziplineId();
  const url = { owner: zid, code: `race${zid.slice(-6)}`, destination: 'https://example.com/race' };
  const links = await Promise.all([1, 2, 3].map(() => importPut(admin, 'urls', link, url)));
  expect(links.map((answer) => answer.status).sort()).toEqual([200, 200, 201]);
  const signedIn = await signInImported(admin, { id: owner, username: body.username });
  expect((await call('GET', '/api/user/stats', { token: signedIn.token })).body.urlsCreated).toBe(1);
});
