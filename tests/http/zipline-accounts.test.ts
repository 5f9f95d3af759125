import { getUser } from '#shared/users/store';
import { call } from '../support/client.ts';
import { signedInUser, USER_RESOURCE_FIELDS } from '../support/users.ts';

/**
 * Issue 33's account routes as Zipline 4.4 clients call them: the token reset answers the user too,
 * `GET /api/users?noincl=true` leaves the caller out, `PATCH /api/user` takes `view.showTags` and
 * `view.showFolder`.
 */

describe('PATCH /api/user/token', () => {
  test('answers {token, user}: the new token, and the User resource without any secret', async () => {
    const me = await signedInUser();
    const response = await call('PATCH', '/api/user/token', { cookie: me.cookie });
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(['token', 'user']);
    const { token, user } = response.body;
    expect(token).not.toBe(me.token);
    expect(Object.keys(user).sort()).toEqual(USER_RESOURCE_FIELDS);
    expect(user).toMatchObject({ id: me.id, username: me.username, role: 'USER' });
    const stored = await getUser(me.id, { consistent: true });
    expect(user.updatedAt).toBe(stored?.updatedAt);
    // Nothing secret: no hash, no nonce, and the token only where the route exists to return it.
    expect(response.text).not.toContain(stored?.passwordHash);
    expect(JSON.stringify(user)).not.toContain(stored?.tokenNonce as string);
    expect(JSON.stringify(user)).not.toContain(token);
    // The answered token is the one that works; the old one is refused.
    expect((await call('GET', '/api/user', { headers: { authorization: token } })).status).toBe(200);
    expect((await call('GET', '/api/user', { headers: { authorization: me.token } })).status).toBe(401);
  });
});

describe('GET /api/users?noincl=', () => {
  test('noincl=true leaves the caller out and lists the others; noincl=false lists the same users', async () => {
    const admin = await signedInUser('ADMIN');
    const other = await signedInUser('USER');
    const listed = async (query: string) => {
      const response = await call('GET', `/api/users${query}`, { cookie: admin.cookie });
      expect(response.status).toBe(200);
      return (response.body as { id: string }[]).map((user) => user.id);
    };
    const without = await listed('?noincl=true');
    expect(without).toContain(other.id);
    expect(without).not.toContain(admin.id);
    // The caller is never in its own listing (decisions.md: nobody acts on themselves here).
    expect((await listed('?noincl=false')).sort()).toEqual([...without].sort());
    expect((await listed('')).sort()).toEqual([...without].sort());
  });

  test('noincl other than true or false is a 400', async () => {
    const admin = await signedInUser('ADMIN');
    const response = await call('GET', '/api/users?noincl=yes', { cookie: admin.cookie });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatch(/noincl must be true or false/);
  });
});

describe('PATCH /api/user view.showTags and view.showFolder', () => {
  test('are stored and returned like the other view flags; null clears one', async () => {
    const me = await signedInUser();
    const set = await call('PATCH', '/api/user', {
      cookie: me.cookie,
      json: { view: { showTags: true, showFolder: false, showMimetype: true } },
    });
    expect(set.status).toBe(200);
    expect(set.body.user.view).toEqual({ showTags: true, showFolder: false, showMimetype: true });
    const read = await call('GET', '/api/user', { cookie: me.cookie });
    expect(read.body.user.view).toEqual({ showTags: true, showFolder: false, showMimetype: true });

    const cleared = await call('PATCH', '/api/user', {
      cookie: me.cookie,
      json: { view: { showTags: null } },
    });
    expect(cleared.status).toBe(200);
    expect(cleared.body.user.view).toEqual({ showFolder: false, showMimetype: true });
  });

  test('a value other than a boolean is a 400 and changes nothing', async () => {
    const me = await signedInUser();
    const before = await getUser(me.id, { consistent: true });
    for (const view of [{ showTags: 'yes' }, { showFolder: 1 }]) {
      const response = await call('PATCH', '/api/user', { cookie: me.cookie, json: { view } });
      expect(response.status).toBe(400);
    }
    expect((await getUser(me.id, { consistent: true }))?.view).toEqual(before?.view);
  });
});
