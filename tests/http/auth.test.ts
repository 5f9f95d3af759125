import { SESSION_REQUIRED } from '#shared/auth/authenticate';
import { sealSession } from '#shared/auth/session';
import { getUser } from '#shared/users/store';
import { call, cookieValue } from '../support/client.ts';
import { PASSWORD, signedInUser } from '../support/users.ts';

const ERROR_HEADERS = {
  'content-type': 'application/json; charset=utf-8',
  'access-control-allow-origin': '*',
};

function expectNotLoggedIn(response: { status: number; body: unknown; headers: Record<string, string> }) {
  expect(response.status).toBe(401);
  expect(response.body).toEqual({ error: 'not logged in', statusCode: 401 });
  expect(response.headers).toMatchObject(ERROR_HEADERS);
}

describe('POST /api/auth/login', () => {
  test('sets the session cookie with exactly the contract attributes and returns the user', async () => {
    const me = await signedInUser();
    const before = Date.now();
    const response = await call('POST', '/api/auth/login', {
      json: { username: me.username, password: PASSWORD },
    });
    expect(response.status).toBe(200);
    expect(response.body.user).toMatchObject({ id: me.id, username: me.username, role: 'USER' });
    expect(response.cookies).toHaveLength(1);
    const cookie = response.cookies[0] as string;
    expect(cookie).toMatch(
      /^service_session=Fe26\.2\*[^;]+; Max-Age=604800; Path=\/; Expires=[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT; HttpOnly; SameSite=Lax; Secure$/,
    );
    const expires = Date.parse(/Expires=([^;]+)/.exec(cookie)?.[1] as string);
    expect(expires).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 604800_000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 604800_000);
    expect(response.headers['set-cookie']).toBeUndefined();
  });

  test('omits Secure only when the client came over plain HTTP (local runner)', async () => {
    const me = await signedInUser();
    const response = await call('POST', '/api/auth/login', {
      json: { username: me.username, password: PASSWORD },
      protocol: 'http',
    });
    expect(response.cookies[0]).not.toMatch(/Secure/);
    expect(response.cookies[0]).toMatch(/HttpOnly; SameSite=Lax$/);
  });

  test('unknown username and wrong password get the same 401 answer', async () => {
    const me = await signedInUser();
    const wrongPassword = await call('POST', '/api/auth/login', {
      json: { username: me.username, password: 'nope-nope' },
    });
    const unknownUser = await call('POST', '/api/auth/login', {
      json: { username: 'nobody-here', password: 'nope-nope' },
    });
    for (const response of [wrongPassword, unknownUser]) {
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ error: 'invalid username or password', statusCode: 401 });
      expect(response.cookies).toEqual([]);
    }
    expect(wrongPassword.headers).toEqual(unknownUser.headers);
  });

  test('usernames match case-insensitively and surrounding spaces are ignored', async () => {
    const me = await signedInUser();
    const response = await call('POST', '/api/auth/login', {
      json: { username: ` ${me.username.toUpperCase()} `, password: PASSWORD },
    });
    expect(response.status).toBe(200);
    expect(response.body.user.id).toBe(me.id);
  });

  test('`code: null` (what uploader token scripts send) means no code', async () => {
    const me = await signedInUser();
    const response = await call('POST', '/api/auth/login', {
      json: { username: me.username, password: PASSWORD, code: null },
    });
    expect(response.status).toBe(200);
    expect(response.body.user.id).toBe(me.id);
    expect(response.cookies).toHaveLength(1);
  });

  test.each([
    ['not JSON', '{"username": "a", '],
    ['a JSON array', '["a", "b"]'],
    ['a JSON string', '"hello"'],
    ['JSON null', 'null'],
    ['missing password', '{"username": "a"}'],
    ['a number for username', '{"username": 1, "password": "secret-password"}'],
    ['an unknown property', '{"username": "a", "password": "secret-password", "admin": true}'],
    ['a __proto__ property', '{"username": "a", "password": "secret-password", "__proto__": {"x": 1}}'],
  ])('%s is a 400 error body', async (_, raw) => {
    const response = await call('POST', '/api/auth/login', {
      raw,
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: expect.any(String), statusCode: 400 });
    expect(response.headers).toMatchObject(ERROR_HEADERS);
  });

  test('an empty body is a 400 and a non-JSON content type a 415', async () => {
    expect((await call('POST', '/api/auth/login')).status).toBe(400);
    const form = await call('POST', '/api/auth/login', {
      raw: 'username=a&password=b',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(415);
    expect(form.body.statusCode).toBe(415);
  });
});

describe('session cookie', () => {
  test('authenticates GET /api/user until logout, then is refused', async () => {
    const me = await signedInUser();
    expect((await call('GET', '/api/user', { cookie: me.cookie })).status).toBe(200);
    const logout = await call('POST', '/api/auth/logout', { cookie: me.cookie });
    expect(logout.status).toBe(200);
    expect(logout.body).toEqual({ loggedOut: true });
    expect(logout.cookies[0]).toMatch(
      /^service_session=; Max-Age=0; Path=\/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax/,
    );
    expectNotLoggedIn(await call('GET', '/api/user', { cookie: me.cookie }));
    expect(Object.keys((await getUser(me.id, { consistent: true }))?.sessions ?? {})).toHaveLength(0);
  });

  test('GET /api/auth/logout works too and ends only that session', async () => {
    const me = await signedInUser();
    const second = await call('POST', '/api/auth/login', {
      json: { username: me.username, password: PASSWORD },
    });
    const secondCookie = cookieValue(second.cookies[0]);
    expect((await call('GET', '/api/auth/logout', { cookie: secondCookie })).status).toBe(200);
    expectNotLoggedIn(await call('GET', '/api/user', { cookie: secondCookie }));
    expect((await call('GET', '/api/user', { cookie: me.cookie })).status).toBe(200);
  });

  test('logout without a session is a 401', async () => {
    expectNotLoggedIn(await call('POST', '/api/auth/logout'));
  });

  test.each([
    ['a garbage cookie', 'service_session=garbage'],
    ['an empty cookie', 'service_session='],
    ['an iron-looking forgery', 'service_session=Fe26.2**abc*def*ghi*jkl*mno*pqr*stu'],
    ['a cookie over 4 KB', `service_session=${'A'.repeat(5000)}`],
    ['only another cookie', 'session=whatever'],
  ])('%s is the plain 401', async (_, cookie) => {
    expectNotLoggedIn(await call('GET', '/api/user', { cookie }));
  });

  test('a tampered cookie is refused', async () => {
    const me = await signedInUser();
    const value = me.cookie.slice('service_session='.length);
    const position = value.length - 10;
    const flipped =
      value.slice(0, position) + (value[position] === 'A' ? 'B' : 'A') + value.slice(position + 1);
    expectNotLoggedIn(await call('GET', '/api/user', { cookie: `service_session=${flipped}` }));
  });

  test('a cookie sealed with another key is refused', async () => {
    const me = await signedInUser();
    const user = await getUser(me.id, { consistent: true });
    const [sessionId, issuedAt] = Object.entries(user?.sessions ?? {})[0] as [string, number];
    const keys = process.env.SERVICE_KEYS;
    process.env.SERVICE_KEYS = JSON.stringify({
      id: 'test',
      secret: 'another-master-key-of-sufficient-length-0123456789',
    });
    const { parseServiceKeys } = await import('#shared/secrets');
    const { seal, defaults } = await import('iron-webcrypto');
    const foreign = await seal(
      { u: me.id, s: sessionId, i: issuedAt },
      parseServiceKeys(process.env.SERVICE_KEYS).session.current,
      defaults,
    );
    process.env.SERVICE_KEYS = keys;
    expectNotLoggedIn(await call('GET', '/api/user', { cookie: `service_session=${foreign}` }));
  });

  test('a validly sealed cookie whose session is unknown or expired is refused', async () => {
    const me = await signedInUser();
    const user = await getUser(me.id, { consistent: true });
    const [sessionId, issuedAt] = Object.entries(user?.sessions ?? {})[0] as [string, number];
    const unknownSession = await sealSession({ userId: me.id, sessionId: 'not-a-session', issuedAt });
    expectNotLoggedIn(await call('GET', '/api/user', { cookie: `service_session=${unknownSession}` }));
    const eightDaysAgo = Date.now() - 8 * 24 * 3600 * 1000;
    const expired = await sealSession({ userId: me.id, sessionId, issuedAt: eightDaysAgo });
    expectNotLoggedIn(await call('GET', '/api/user', { cookie: `service_session=${expired}` }));
    const wrongUser = await sealSession({ userId: 'someone-else', sessionId, issuedAt });
    expectNotLoggedIn(await call('GET', '/api/user', { cookie: `service_session=${wrongUser}` }));
  });

  test('the session list is capped, dropping the oldest session first', async () => {
    const me = await signedInUser();
    const cookies = [me.cookie];
    for (let i = 0; i < 10; i++) {
      const login = await call('POST', '/api/auth/login', {
        json: { username: me.username, password: PASSWORD },
      });
      cookies.push(cookieValue(login.cookies[0]));
    }
    const user = await getUser(me.id, { consistent: true });
    expect(Object.keys(user?.sessions ?? {})).toHaveLength(10);
    expectNotLoggedIn(await call('GET', '/api/user', { cookie: cookies[0] }));
    expect((await call('GET', '/api/user', { cookie: cookies[10] })).status).toBe(200);
    expect((await call('GET', '/api/user', { cookie: cookies[1] })).status).toBe(200);
  });
});

describe('API token', () => {
  test('GET /api/user/token returns a token that authenticates raw or with Bearer', async () => {
    const me = await signedInUser();
    expect(me.token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+\.[\w-]+$/);
    const raw = await call('GET', '/api/user', { token: me.token });
    expect(raw.status).toBe(200);
    expect(raw.body.user.id).toBe(me.id);
    expect(raw.body.token).toBe(me.token);
    expect((await call('GET', '/api/user', { token: `Bearer ${me.token}` })).status).toBe(200);
    expect((await call('GET', '/api/user', { headers: { Authorization: me.token } })).status).toBe(200);
  });

  test('the token is the same on every read until it is reset, then the old one is refused', async () => {
    const me = await signedInUser();
    expect((await call('GET', '/api/user/token', { token: me.token })).body).toEqual({ token: me.token });
    const reset = await call('PATCH', '/api/user/token', { cookie: me.cookie });
    expect(reset.status).toBe(200);
    expect(reset.body.token).not.toBe(me.token);
    expectNotLoggedIn(await call('GET', '/api/user', { token: me.token }));
    expect((await call('GET', '/api/user', { token: reset.body.token })).status).toBe(200);
    expect((await call('GET', '/api/user/token', { cookie: me.cookie })).body.token).toBe(reset.body.token);
  });

  test('the table holds nothing usable as a token', async () => {
    const me = await signedInUser();
    const stored = JSON.stringify(await getUser(me.id, { consistent: true }));
    const [, , , signature] = me.token.split('.');
    expect(stored).not.toContain(me.token);
    expect(stored).not.toContain(signature);
  });

  test('an Authorization header alone decides: a bad token with a valid cookie is a 401', async () => {
    const me = await signedInUser();
    expectNotLoggedIn(await call('GET', '/api/user', { cookie: me.cookie, token: 'bad-token' }));
    expectNotLoggedIn(await call('GET', '/api/user', { cookie: me.cookie, token: '' }));
  });

  test.each([
    ['a garbage token', 'garbage'],
    ['a token with too many parts', 'a.b.c.d.e'],
    ['a token with an unknown key id', 'nokey.user.nonce.c2lnbmF0dXJl'],
    ['an oversized token', `a.${'b'.repeat(2000)}.c.d`],
    ['a non-ASCII token', 'é.ü.ö.ß'],
  ])('%s is the plain 401', async (_, token) => {
    expectNotLoggedIn(await call('GET', '/api/user', { token }));
  });

  test('a token with a forged signature or another user id is refused', async () => {
    const me = await signedInUser();
    const other = await signedInUser();
    const [keyId, userId, nonce, signature] = me.token.split('.') as [string, string, string, string];
    const flipped = (signature[0] === 'A' ? 'B' : 'A') + signature.slice(1);
    expectNotLoggedIn(await call('GET', '/api/user', { token: `${keyId}.${userId}.${nonce}.${flipped}` }));
    expectNotLoggedIn(
      await call('GET', '/api/user', { token: `${keyId}.${other.id}.${nonce}.${signature}` }),
    );
  });
});

describe('password change', () => {
  test('keeps the session that made it and ends every other one', async () => {
    const me = await signedInUser();
    const other = cookieValue(
      (await call('POST', '/api/auth/login', { json: { username: me.username, password: PASSWORD } }))
        .cookies[0],
    );
    const response = await call('PATCH', '/api/user', {
      cookie: me.cookie,
      json: { password: 'a brand new password' },
    });
    expect(response.status).toBe(200);
    expect(response.body.user.sessions).toHaveLength(1);
    expect((await call('GET', '/api/user', { cookie: me.cookie })).status).toBe(200);
    expectNotLoggedIn(await call('GET', '/api/user', { cookie: other }));
    expect(
      (await call('POST', '/api/auth/login', { json: { username: me.username, password: PASSWORD } })).status,
    ).toBe(401);
    expect(
      (
        await call('POST', '/api/auth/login', {
          json: { username: me.username, password: 'a brand new password' },
        })
      ).status,
    ).toBe(200);
    // The token is replaced: the response carries the new one, every holder of the old one is out.
    expectNotLoggedIn(await call('GET', '/api/user', { token: me.token }));
    expect(response.body.token).not.toBe(me.token);
    expect((await call('GET', '/api/user', { token: response.body.token })).status).toBe(200);
    expect((await call('GET', '/api/user/token', { cookie: me.cookie })).body.token).toBe(
      response.body.token,
    );
  });

  test('a token cannot change the password, not even with the current password (a session is needed)', async () => {
    const me = await signedInUser();
    const before = await getUser(me.id, { consistent: true });
    for (const json of [
      { password: 'taken over for good' },
      { password: 'taken over for good', currentPassword: PASSWORD },
      { password: 'taken over for good', currentPassword: 'not the password' },
    ]) {
      const response = await call('PATCH', '/api/user', { token: me.token, json });
      expect(response.body).toEqual({ error: SESSION_REQUIRED, statusCode: 403 });
    }
    expect(await getUser(me.id, { consistent: true })).toEqual(before);
    expect((await call('GET', '/api/user', { token: me.token })).status).toBe(200);
    expect(
      (await call('POST', '/api/auth/login', { json: { username: me.username, password: PASSWORD } })).status,
    ).toBe(200);
  });

  test('with the session cookie the current password is optional but checked when given', async () => {
    const me = await signedInUser();
    const wrong = await call('PATCH', '/api/user', {
      cookie: me.cookie,
      json: { password: 'a brand new password', currentPassword: 'not the password' },
    });
    expect(wrong.status).toBe(400);
    const right = await call('PATCH', '/api/user', {
      cookie: me.cookie,
      json: { password: 'a brand new password', currentPassword: PASSWORD },
    });
    expect(right.status).toBe(200);
  });

  test('guesses of the current password count as login failures of the username', async () => {
    const me = await signedInUser();
    for (let i = 0; i < 10; i++) {
      const guess = await call('PATCH', '/api/user', {
        cookie: me.cookie,
        json: { password: 'taken over for good', currentPassword: `guess number ${i}` },
      });
      expect(guess.status).toBe(400);
    }
    const throttled = await call('PATCH', '/api/user', {
      cookie: me.cookie,
      json: { password: 'taken over for good', currentPassword: PASSWORD },
    });
    expect(throttled.status).toBe(429);
    expect(
      (await call('POST', '/api/auth/login', { json: { username: me.username, password: PASSWORD } })).status,
    ).toBe(429);
  });
});
