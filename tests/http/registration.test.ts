import { call, cookieValue, uniqueName } from '../support/client.ts';
import { PASSWORD, signedInUser } from '../support/users.ts';

/** Invites and registration (issue 38, docs/security.md#registration). */

type Signed = Awaited<ReturnType<typeof signedInUser>>;
let root: Signed;
let admin: Signed;
let ipCount = 0;
/** A fresh client address per registration, so the per-address limit is only met where tested. */
const address = () => `198.51.100.${++ipCount}`;

beforeAll(async () => {
  root = await signedInUser('SUPERADMIN');
  admin = await signedInUser('ADMIN');
});

async function settings(json: Record<string, unknown>) {
  expect((await call('PATCH', '/api/server/settings', { cookie: root.cookie, json })).status).toBe(200);
}

const register = (json: Record<string, unknown>, sourceIp = address()) =>
  call('POST', '/api/auth/register', { json, sourceIp });

async function invite(json: Record<string, unknown>, by = admin) {
  const response = await call('POST', '/api/auth/invites', { cookie: by.cookie, json });
  expect(response.status).toBe(200);
  return response.body as { id: string; code: string; uses: number; maxUses: number | null };
}

describe('POST /api/auth/register', () => {
  test('closed (the default): 403, no account made', async () => {
    const username = uniqueName('closed');
    const response = await register({ username, password: PASSWORD });
    expect(response.status).toBe(403);
    expect(response.body.error).toContain('registration is closed');
    expect((await call('POST', '/api/auth/login', { json: { username, password: PASSWORD } })).status).toBe(
      401,
    );
  });

  test('open: a USER, signed in as a login signs in, with the default view settings', async () => {
    await settings({ featuresUserRegistration: true, usersDefaultView: { enabled: true, embed: true } });
    const username = uniqueName('open');
    const response = await register({ username, password: PASSWORD });
    expect(response.status).toBe(200);
    expect(response.body.user).toMatchObject({
      username,
      role: 'USER',
      view: { enabled: true, embed: true },
    });
    expect(response.body.user.passwordHash).toBeUndefined();
    const cookie = cookieValue(response.cookies[0]);
    expect((await call('GET', '/api/user', { cookie })).body.user.username).toBe(username);
    // The name is taken now (the username constraint items, folded forms included).
    const again = await register({ username: username.toUpperCase(), password: PASSWORD });
    expect(again.status).toBe(400);
    // An account an administrator makes starts with them too.
    const made = await call('POST', '/api/users', {
      cookie: admin.cookie,
      json: { username: uniqueName('made'), password: PASSWORD },
    });
    expect(made.body.view).toEqual({ enabled: true, embed: true });
    await settings({ featuresUserRegistration: null, usersDefaultView: null });
  });

  test('bad input is a 400 naming the field', async () => {
    await settings({ featuresUserRegistration: true });
    expect((await register({ username: uniqueName('x'), password: 'short' })).body.error).toContain(
      'password must be at least 8 bytes',
    );
    expect((await register({ username: 'x', password: PASSWORD, role: 'ADMIN' })).body.error).toBe(
      'role: unknown property',
    );
    await settings({ featuresUserRegistration: null });
  });

  test('counted per address: the 6th attempt from one address within the window is a 429', async () => {
    await settings({ featuresUserRegistration: true });
    const sourceIp = '192.0.2.99';
    const statuses = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await register({ username: uniqueName('t'), password: PASSWORD }, sourceIp)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    await settings({ featuresUserRegistration: null });
  });
});

describe('invites', () => {
  test('an invite opens closed registration; an unknown code is a 403', async () => {
    const made = await invite({ expiresAt: 'never' });
    expect(made).toMatchObject({ uses: 0, maxUses: null, expiresAt: null, inviterId: admin.id });
    expect(made.code).toMatch(/^[A-Za-z0-9]{8}$/);
    const response = await register({ username: uniqueName('invited'), password: PASSWORD, code: made.code });
    expect(response.status).toBe(200);
    const unknown = await register({ username: uniqueName('u'), password: PASSWORD, code: 'nope1234' });
    expect(unknown.status).toBe(403);
    const stored = await call('GET', `/api/auth/invites/${made.id}`, { cookie: admin.cookie });
    expect(stored.body.uses).toBe(1);
  });

  test(`${12} concurrent registrations with an invite of 3 uses: exactly 3 accounts`, async () => {
    const made = await invite({ expiresAt: '1d', maxUses: 3 });
    const answers = await Promise.all(
      Array.from({ length: 12 }, () =>
        register({ username: uniqueName('race'), password: PASSWORD, code: made.code }),
      ),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([200, 200, 200, ...Array(9).fill(403)]);
    const stored = await call('GET', `/api/auth/invites/${made.code}`, { cookie: admin.cookie });
    expect(stored.body).toMatchObject({ uses: 3, maxUses: 3 });
  });

  test('a registration refused for its username uses nothing of the invite', async () => {
    const made = await invite({ expiresAt: 'never', maxUses: 1 });
    const taken = await register({ username: admin.username, password: PASSWORD, code: made.code });
    expect(taken.status).toBe(400);
    expect((await call('GET', `/api/auth/invites/${made.id}`, { cookie: admin.cookie })).body.uses).toBe(0);
  });

  test('an expired invite, or with invites off, is a 403', async () => {
    const made = await invite({ expiresAt: 'never' });
    await settings({ invitesEnabled: false });
    const off = await register({ username: uniqueName('off'), password: PASSWORD, code: made.code });
    expect(off.status).toBe(403);
    expect(
      (await call('POST', '/api/auth/invites', { cookie: admin.cookie, json: { expiresAt: 'never' } }))
        .status,
    ).toBe(403);
    await settings({ invitesEnabled: null });
  });

  test('list, get, delete; a deleted code opens nothing; the invite length setting applies', async () => {
    await settings({ invitesLength: 16 });
    const made = await invite({ expiresAt: '2 weeks', maxUses: 5 });
    expect(made.code).toHaveLength(16);
    await settings({ invitesLength: null });
    const list = await call('GET', '/api/auth/invites', { cookie: root.cookie });
    expect(list.body.map((each: { id: string }) => each.id)).toContain(made.id);
    const deleted = await call('DELETE', `/api/auth/invites/${made.id}`, { cookie: admin.cookie });
    expect(deleted.body).toMatchObject({ id: made.id, code: made.code });
    expect((await call('GET', `/api/auth/invites/${made.id}`, { cookie: admin.cookie })).status).toBe(404);
    const response = await register({ username: uniqueName('gone'), password: PASSWORD, code: made.code });
    expect(response.status).toBe(403);
  });

  test.each([
    [{ expiresAt: 'yesterday' }, 'expiresAt: must be "never"'],
    [{ expiresAt: '2001-01-01T00:00:00Z' }, 'expiresAt: must be "never"'],
    [{ expiresAt: 'never', maxUses: 0 }, 'maxUses: must be at least 1'],
    [{ maxUses: 2 }, 'expiresAt is required'],
  ])('POST %j is a 400 naming the field', async (json, message) => {
    const response = await call('POST', '/api/auth/invites', { cookie: admin.cookie, json });
    expect(response.status).toBe(400);
    expect(response.body.error).toContain(message);
  });

  test('a USER gets 403 on every invite route; nobody signed in 401', async () => {
    const user = await signedInUser();
    const made = await invite({ expiresAt: 'never' });
    for (const [method, path] of [
      ['GET', '/api/auth/invites'],
      ['POST', '/api/auth/invites'],
      ['GET', `/api/auth/invites/${made.id}`],
      ['DELETE', `/api/auth/invites/${made.id}`],
    ] as const) {
      const json = method === 'POST' ? { expiresAt: 'never' } : undefined;
      expect((await call(method, path, { cookie: user.cookie, json })).status).toBe(403);
      expect((await call(method, path, { json })).status).toBe(401);
    }
    expect((await call('GET', `/api/auth/invites/${made.id}`, { cookie: admin.cookie })).status).toBe(200);
  });
});
