import { hashPassword } from '#shared/auth/password';
import { shardOf } from '#shared/db/keys/partitions';
import { USER_SHARDS } from '#shared/db/keys/users';
import { createUser } from '#shared/users/creation';
import { type Role, roleRank } from '#shared/users/model';
import { call, uniqueName } from '../support/client.ts';
import { upload } from '../support/files.ts';
import { signedInUser } from '../support/users.ts';

/** This file's table holds exactly the users created here. */
let root: Awaited<ReturnType<typeof signedInUser>>;
let admin: Awaited<ReturnType<typeof signedInUser>>;
const ids: Record<Role, string[]> = { SUPERADMIN: [], ADMIN: [], USER: [] };

beforeAll(async () => {
  root = await signedInUser('SUPERADMIN');
  admin = await signedInUser('ADMIN');
  ids.SUPERADMIN.push(root.id, (await signedInUser('SUPERADMIN')).id);
  ids.ADMIN.push(admin.id);
  const passwordHash = await hashPassword('not used in this file');
  const created = await Promise.all([
    ...Array.from({ length: 4 }, () =>
      createUser({ username: uniqueName('admin'), passwordHash, role: 'ADMIN' }),
    ),
    ...Array.from({ length: 21 }, () =>
      createUser({ username: uniqueName('user'), passwordHash, role: 'USER' }),
    ),
  ]);
  for (const user of created) ids[user.role].push(user.id);
});

async function listAll(cookie: string, limit: number) {
  const pages: string[][] = [];
  let cursor: string | undefined;
  do {
    const query = new URLSearchParams({ limit: String(limit), ...(cursor ? { cursor } : {}) });
    const response = await call('GET', `/api/users?${query}`, { cookie });
    expect(response.status).toBe(200);
    expect(Array.isArray(response.body)).toBe(true);
    pages.push(response.body.map((user: { id: string }) => user.id));
    cursor = response.headers['x-next-cursor'];
  } while (cursor && pages.length < 50);
  return pages;
}

test('a SUPERADMIN pages through every ADMIN and USER (26), 7 at a time, without duplicates or gaps', async () => {
  const pages = await listAll(root.cookie, 7);
  expect(pages.map((page) => page.length)).toEqual([7, 7, 7, 5]);
  const listed = pages.flat();
  expect(new Set(listed).size).toBe(listed.length);
  // Everyone but the SUPERADMINs (including the caller), admins first.
  expect(listed.sort()).toEqual([...ids.ADMIN, ...ids.USER].sort());
});

test('an ADMIN pages through the USERs only; pages are full although ADMINs sort in between', async () => {
  const pages = await listAll(admin.cookie, 5);
  expect(pages.map((page) => page.length)).toEqual([5, 5, 5, 5, 1]);
  expect(pages.flat().sort()).toEqual([...ids.USER].sort());
});

/** The listing's order: role rank, then id, as DynamoDB orders the index's sort keys (bytes). */
function expectedOrder(roles: Role[]) {
  return roles
    .flatMap((role) => ids[role].map((id) => ({ id, key: `${roleRank(role)}#${id}` })))
    .sort((a, b) => Buffer.compare(Buffer.from(a.key), Buffer.from(b.key)))
    .map((user) => user.id);
}

test('the users lie in many shards, and pages of any size merge them in order, none skipped or repeated', async () => {
  const shards = new Set([...ids.ADMIN, ...ids.USER].map((id) => shardOf(id, USER_SHARDS)));
  expect(shards.size).toBeGreaterThan(8);
  for (const limit of [1, 2, 3, 4, 6, 25, 26, 27]) {
    expect([limit, (await listAll(root.cookie, limit)).flat()]).toEqual([
      limit,
      expectedOrder(['ADMIN', 'USER']),
    ]);
  }
  for (const limit of [1, 3, 20]) {
    expect([limit, (await listAll(admin.cookie, limit)).flat()]).toEqual([limit, expectedOrder(['USER'])]);
  }
});

test('a listed user is the User of GET /api/users/{id}, but for its session ids (the index holds none)', async () => {
  const user = await signedInUser('USER');
  const changes = [
    await call('PATCH', `/api/users/${user.id}`, {
      cookie: root.cookie,
      json: { quota: { filesQuota: 'BY_FILES', maxFiles: 3 } },
    }),
    await call('PATCH', '/api/user', { cookie: user.cookie, json: { view: { align: 'center' } } }),
  ];
  expect(changes.map((response) => response.status)).toEqual([200, 200]);
  const single = await call('GET', `/api/users/${user.id}`, { cookie: root.cookie });
  expect(single.body.sessions).toHaveLength(1);
  const listed = (await call('GET', '/api/users', { cookie: root.cookie })).body.find(
    (candidate: { id: string }) => candidate.id === user.id,
  );
  expect(listed).toEqual({ ...single.body, sessions: [], usage: { files: 0, bytes: 0 } });
  await call('DELETE', `/api/users/${user.id}`, { cookie: root.cookie });
});

test('each listed user carries its usage from its file counters: uploads and deletions move it', async () => {
  const user = await signedInUser('USER');
  const usageOf = async () =>
    (await call('GET', '/api/users', { cookie: root.cookie })).body.find(
      (candidate: { id: string }) => candidate.id === user.id,
    ).usage;
  expect(await usageOf()).toEqual({ files: 0, bytes: 0 });
  const [first] = await upload(user.token, [
    { fileName: 'a.txt', type: 'text/plain', content: 'x'.repeat(1000) },
  ]);
  await upload(user.token, [
    { fileName: 'b.bin', type: 'application/octet-stream', content: Buffer.alloc(2345) },
  ]);
  expect(await usageOf()).toEqual({ files: 2, bytes: 3345 });
  // A presigned upload reserves quota while pending, but is not yet a file of the user's.
  const pending = await call('POST', '/api/user/files/uploads', {
    token: user.token,
    json: { originalName: 'big.bin', size: 9_000_000, type: 'application/octet-stream' },
  });
  expect(pending.status).toBe(200);
  expect(await usageOf()).toEqual({ files: 2, bytes: 3345 });
  expect((await call('DELETE', `/api/user/files/${first?.id}`, { token: user.token })).status).toBe(200);
  expect(await usageOf()).toEqual({ files: 1, bytes: 2345 });
  await call('DELETE', `/api/users/${user.id}`, { cookie: root.cookie, json: { delete: true } });
});

test('a page that ends exactly at the end has no next cursor; the default limit returns everyone', async () => {
  const exact = await call('GET', '/api/users?limit=21', { cookie: admin.cookie });
  expect(exact.body).toHaveLength(21);
  expect(exact.headers['x-next-cursor']).toBeUndefined();
  const all = await call('GET', '/api/users', { token: root.token });
  expect(all.headers['x-next-cursor']).toBeUndefined();
  expect(all.body.map((user: { role: string }) => user.role)).toEqual([
    ...Array(5).fill('ADMIN'),
    ...Array(21).fill('USER'),
  ]);
  for (const user of all.body) {
    expect(user).not.toHaveProperty('passwordHash');
    expect(user).not.toHaveProperty('tokenNonce');
  }
});

test('a role change moves the user into or out of an ADMIN’s listing', async () => {
  const user = await signedInUser('USER');
  const before = await call('GET', '/api/users', { cookie: admin.cookie });
  expect(before.body.map((listed: { id: string }) => listed.id)).toContain(user.id);
  await call('PATCH', `/api/users/${user.id}`, { cookie: root.cookie, json: { role: 'ADMIN' } });
  const after = await call('GET', '/api/users', { cookie: admin.cookie });
  expect(after.body.map((listed: { id: string }) => listed.id)).not.toContain(user.id);
  await call('DELETE', `/api/users/${user.id}`, { cookie: root.cookie });
});

describe('bad cursors and parameters', () => {
  async function firstCursor(cookie: string) {
    const response = await call('GET', '/api/users?limit=2', { cookie });
    return response.headers['x-next-cursor'] as string;
  }

  test('a tampered cursor is 400', async () => {
    const cursor = await firstCursor(root.cookie);
    const [payload, signature] = cursor.split('.') as [string, string];
    const key = JSON.parse(Buffer.from(payload, 'base64url').toString());
    // Moves shard 0 back to the start of the SUPERADMINs' band.
    key[0] = '0#';
    const forged = `${Buffer.from(JSON.stringify(key)).toString('base64url')}.${signature}`;
    const flipped = `${payload}.${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`;
    for (const bad of [forged, flipped, `${cursor}.x`, 'garbage', payload]) {
      const response = await call('GET', `/api/users?cursor=${encodeURIComponent(bad)}`, {
        cookie: root.cookie,
      });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: 'invalid cursor', statusCode: 400 });
    }
  });

  test('a SUPERADMIN’s cursor does not continue an ADMIN’s listing (scope-bound)', async () => {
    const cursor = await firstCursor(root.cookie);
    const response = await call('GET', `/api/users?cursor=${encodeURIComponent(cursor)}`, {
      cookie: admin.cookie,
    });
    expect(response.status).toBe(400);
  });

  test.each([
    'limit=0',
    'limit=1001',
    'limit=abc',
    'limit=-1',
    'limit=1.5',
    'limit=',
    'cursor=',
    'limit=0&noincl=true',
  ])('?%s is 400', async (query) => {
    const response = await call('GET', `/api/users?${query}`, { cookie: root.cookie });
    expect(response.status).toBe(400);
    expect(response.body.statusCode).toBe(400);
  });

  test('parameters the route does not know are ignored (the Zipline dashboard sends noincl=true)', async () => {
    const plain = await call('GET', '/api/users?limit=2', { cookie: root.cookie });
    for (const query of ['noincl=true', 'page=2', '_=1700000000', 'sort=id']) {
      const response = await call('GET', `/api/users?limit=2&${query}`, { cookie: root.cookie });
      expect([query, response.status]).toEqual([query, 200]);
      expect(response.body).toEqual(plain.body);
    }
  });

  test('limit=1000 and limit=1 are accepted', async () => {
    expect((await call('GET', '/api/users?limit=1000', { cookie: root.cookie })).status).toBe(200);
    const one = await call('GET', '/api/users?limit=1', { cookie: root.cookie });
    expect(one.body).toHaveLength(1);
    expect(one.headers['x-next-cursor']).toEqual(expect.any(String));
  });
});
