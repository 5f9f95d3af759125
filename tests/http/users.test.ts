import { call, uniqueName } from '../support/client.ts';
import { PASSWORD, signedInUser } from '../support/users.ts';

const PNG_1X1 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

async function asRoot(method: string, path: string, json?: unknown) {
  const root = await signedInUser('SUPERADMIN');
  return call(method, path, { cookie: root.cookie, ...(json === undefined ? {} : { json }) });
}

describe('duplicate usernames', () => {
  test('creating or renaming to a taken name (any case) is 400 and writes nothing', async () => {
    const admin = await signedInUser('ADMIN');
    const holder = await signedInUser('USER');
    const other = await signedInUser('USER');
    const taken = { error: 'username is already taken', statusCode: 400 };

    const create = await call('POST', '/api/users', {
      cookie: admin.cookie,
      json: { username: holder.username.toUpperCase(), password: PASSWORD },
    });
    expect(create.status).toBe(400);
    expect(create.body).toEqual(taken);

    const rename = await call('PATCH', `/api/users/${other.id}`, {
      cookie: admin.cookie,
      json: { username: ` ${holder.username} `, quota: { filesQuota: 'BY_FILES', maxFiles: 3 } },
    });
    expect(rename.status).toBe(400);
    expect(rename.body).toEqual(taken);
    const stored = await asRoot('GET', `/api/users/${other.id}`);
    expect(stored.body).toMatchObject({ username: other.username, quota: null });
    // The loser keeps its own name: it can still sign in with it.
    const login = await call('POST', '/api/auth/login', {
      json: { username: other.username, password: PASSWORD },
    });
    expect(login.status).toBe(200);
  });

  test('a rename releases the old name, which can then be created again', async () => {
    const admin = await signedInUser('ADMIN');
    const user = await signedInUser('USER');
    const renamed = uniqueName('renamed');
    const rename = await call('PATCH', `/api/users/${user.id}`, {
      cookie: admin.cookie,
      json: { username: renamed },
    });
    expect(rename.status).toBe(200);
    expect(rename.body.username).toBe(renamed);
    const reuse = await call('POST', '/api/users', {
      cookie: admin.cookie,
      json: { username: user.username, password: PASSWORD },
    });
    expect(reuse.status).toBe(200);
    expect(reuse.body.id).not.toBe(user.id);
  });

  test('an admin rename, a self rename and a create racing for one name: exactly one wins', async () => {
    const admin = await signedInUser('ADMIN');
    // jest's ESM loader can fail when handler modules are first imported concurrently: load the
    // three one at a time first, as a warm Lambda has them loaded anyway.
    for (const [method, path] of [
      ['PATCH', '/api/users/none'],
      ['PATCH', '/api/user'],
      ['POST', '/api/users'],
    ] as const) {
      expect((await call(method, path, { cookie: admin.cookie, json: { unknown: true } })).status).toBe(400);
    }
    for (let round = 0; round < 5; round++) {
      const self = await signedInUser('USER');
      const target = await signedInUser('USER');
      const name = uniqueName('contested');
      const [adminRename, selfRename, create] = await Promise.all([
        call('PATCH', `/api/users/${target.id}`, { cookie: admin.cookie, json: { username: name } }),
        call('PATCH', '/api/user', { cookie: self.cookie, json: { username: name } }),
        call('POST', '/api/users', { token: admin.token, json: { username: name, password: PASSWORD } }),
      ]);
      const statuses = [adminRename.status, selfRename.status, create.status];
      expect(statuses.filter((status) => status === 200)).toHaveLength(1);
      for (const response of [adminRename, selfRename, create]) {
        if (response.status !== 200) expect(response.body.error).toBe('username is already taken');
      }
      // The name belongs to the winner, and the losers kept theirs.
      const login = await call('POST', '/api/auth/login', { json: { username: name, password: PASSWORD } });
      const winnerId =
        adminRename.status === 200 ? target.id : selfRename.status === 200 ? self.id : create.body.id;
      expect(login.body.user.id).toBe(winnerId);
      if (adminRename.status !== 200)
        expect((await asRoot('GET', `/api/users/${target.id}`)).body.username).toBe(target.username);
      if (selfRename.status !== 200)
        expect((await asRoot('GET', `/api/users/${self.id}`)).body.username).toBe(self.username);
    }
  });
});

describe('validation', () => {
  test.each([
    [{ password: PASSWORD }, 'username'],
    [{ username: 'x' }, 'password'],
    [{ username: '', password: PASSWORD }, 'username'],
    [{ username: 'x', password: 'short' }, 'password'],
    [{ username: 'x', password: PASSWORD, role: 'OWNER' }, 'role'],
    [{ username: 'x', password: PASSWORD, quota: { filesQuota: 'BY_BYTES' } }, 'maxBytes'],
    [{ username: 'x', password: PASSWORD, quota: { filesQuota: 'BY_FILES', maxFiles: -1 } }, 'maxFiles'],
    [{ username: 'x', password: PASSWORD, avatar: 'bm90IGFuIGltYWdl' }, 'avatar'],
    [{ username: 'x', password: PASSWORD, view: {} }, 'unknown property'],
  ])('POST /api/users %j: 400 mentioning %s, nothing created', async (body, mentioned) => {
    const admin = await signedInUser('ADMIN');
    const username = uniqueName('invalid');
    const response = await call('POST', '/api/users', {
      cookie: admin.cookie,
      // 'x' stands for a fresh name, so a wrongly created user would be found by it.
      json: { ...body, ...((body as { username?: string }).username === 'x' ? { username } : {}) },
    });
    expect(response.status).toBe(400);
    expect(response.body.error).toContain(mentioned);
    const login = await call('POST', '/api/auth/login', { json: { username, password: PASSWORD } });
    expect(login.status).toBe(401);
  });

  test.each([
    [{ role: 'GOD' }],
    [{ quota: { filesQuota: 'BY_BYTES', maxBytes: 'lots' } }],
    [{ quota: { filesQuota: 'BY_FILES', maxFiles: 10, maxBytes: '1gb' } }],
    [{ username: 'ok', password: 'short' }],
    [{ view: { align: 'left' } }],
    [{ sessions: [] }],
  ])('PATCH /api/users/{id} %j: 400, nothing changed', async (body) => {
    const admin = await signedInUser('ADMIN');
    const user = await signedInUser('USER');
    const response = await call('PATCH', `/api/users/${user.id}`, { cookie: admin.cookie, json: body });
    expect(response.status).toBe(400);
    const stored = await asRoot('GET', `/api/users/${user.id}`);
    expect(stored.body).toMatchObject({ username: user.username, role: 'USER', quota: null });
    expect((await call('GET', '/api/user', { cookie: user.cookie })).status).toBe(200);
  });

  test('malformed JSON, non-object bodies and a wrong content-type are refused', async () => {
    const admin = await signedInUser('ADMIN');
    const user = await signedInUser('USER');
    const path = `/api/users/${user.id}`;
    const headers = { 'content-type': 'application/json' };
    expect((await call('PATCH', path, { cookie: admin.cookie, raw: '{"role":', headers })).status).toBe(400);
    expect((await call('PATCH', path, { cookie: admin.cookie, raw: '[1]', headers })).status).toBe(400);
    expect((await call('POST', '/api/users', { cookie: admin.cookie })).status).toBe(400);
    expect(
      (await call('DELETE', path, { cookie: admin.cookie, raw: '{"delete":"yes"}', headers })).status,
    ).toBe(400);
    expect(
      (
        await call('PATCH', path, {
          cookie: admin.cookie,
          raw: '{}',
          headers: { 'content-type': 'text/plain' },
        })
      ).status,
    ).toBe(415);
    expect((await asRoot('GET', path)).status).toBe(200);
  });
});

describe('quota and avatar', () => {
  test('a quota is stored normalised, returned on the user, and cleared with null', async () => {
    const admin = await signedInUser('ADMIN');
    const created = await call('POST', '/api/users', {
      cookie: admin.cookie,
      json: {
        username: uniqueName('quota'),
        password: PASSWORD,
        quota: { filesQuota: 'BY_BYTES', maxBytes: '10gb' },
      },
    });
    expect(created.status).toBe(200);
    const byBytes = { filesQuota: 'BY_BYTES', maxBytes: '10737418240', maxFiles: null };
    expect(created.body.quota).toEqual(byBytes);
    const path = `/api/users/${created.body.id}`;
    expect((await call('GET', path, { cookie: admin.cookie })).body.quota).toEqual(byBytes);

    const byFiles = { filesQuota: 'BY_FILES', maxBytes: null, maxFiles: 250 };
    const changed = await call('PATCH', path, { cookie: admin.cookie, json: { quota: byFiles } });
    expect(changed.body.quota).toEqual(byFiles);
    const cleared = await call('PATCH', path, { cookie: admin.cookie, json: { quota: null } });
    expect(cleared.body.quota).toBeNull();
    expect((await call('GET', path, { cookie: admin.cookie })).body.quota).toBeNull();
  });

  test('an avatar set by an admin is the user’s avatar; null removes it', async () => {
    const admin = await signedInUser('ADMIN');
    const username = uniqueName('avatar');
    const created = await call('POST', '/api/users', {
      cookie: admin.cookie,
      json: { username, password: PASSWORD, avatar: `data:image/png;base64,${PNG_1X1}` },
    });
    expect(created.status).toBe(200);
    const login = await call('POST', '/api/auth/login', { json: { username, password: PASSWORD } });
    const cookie = login.cookies[0]?.split(';')[0] as string;
    expect((await call('GET', '/api/user/avatar', { cookie })).text).toBe(`data:image/png;base64,${PNG_1X1}`);
    const removed = await call('PATCH', `/api/users/${created.body.id}`, {
      cookie: admin.cookie,
      json: { avatar: null },
    });
    expect(removed.status).toBe(200);
    expect((await call('GET', '/api/user/avatar', { cookie })).status).toBe(404);
  });
});
