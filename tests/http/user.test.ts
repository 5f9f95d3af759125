import { getAvatar } from '#shared/users/avatar/avatar-store';
import { getUser } from '#shared/users/store';
import { call, uniqueName } from '../support/client.ts';
import { GIF_1X1, JPEG_HEADER, PNG_1X1, WEBP_HEADER } from '../support/pixels.ts';
import { signedInUser, USER_RESOURCE_FIELDS } from '../support/users.ts';

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('GET /api/user', () => {
  test('returns {user, token} with exactly the contract fields and nothing secret', async () => {
    const me = await signedInUser();
    const response = await call('GET', '/api/user', { cookie: me.cookie });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(Object.keys(response.body).sort()).toEqual(['token', 'user']);
    const { user } = response.body;
    expect(Object.keys(user).sort()).toEqual(USER_RESOURCE_FIELDS);
    expect(user).toMatchObject({
      id: me.id,
      username: me.username,
      role: 'USER',
      view: {},
      oauthProviders: [],
      passkeys: [],
      totpSecret: null,
      quota: null,
    });
    expect(user.createdAt).toMatch(ISO_UTC);
    expect(user.updatedAt).toMatch(ISO_UTC);
    expect(user.sessions).toHaveLength(1);
    expect(response.body.token).toBe(me.token);
    const stored = await getUser(me.id, { consistent: true });
    expect(response.text).not.toContain(stored?.passwordHash);
    // The nonce is part of the token by design, but the user resource never carries it.
    expect(JSON.stringify(user)).not.toContain(stored?.tokenNonce);
    expect(response.text).not.toContain('$2');
  });

  test('without authentication is the 401 error body', async () => {
    const response = await call('GET', '/api/user');
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ error: 'not logged in', statusCode: 401 });
  });
});

describe('PATCH /api/user', () => {
  test('an empty object changes nothing and returns the user', async () => {
    const me = await signedInUser();
    const response = await call('PATCH', '/api/user', { cookie: me.cookie, json: {} });
    expect(response.status).toBe(200);
    expect(response.body.user.username).toBe(me.username);
    expect(response.body.token).toBe(me.token);
  });

  test('view is merged key by key; null clears one key; others keep their values', async () => {
    const me = await signedInUser();
    const first = await call('PATCH', '/api/user', {
      cookie: me.cookie,
      json: { view: { enabled: true, align: 'center', embedColor: '#aabbcc', content: 'hello' } },
    });
    expect(first.status).toBe(200);
    expect(first.body.user.view).toEqual({
      enabled: true,
      align: 'center',
      embedColor: '#aabbcc',
      content: 'hello',
    });
    const second = await call('PATCH', '/api/user', {
      cookie: me.cookie,
      json: { view: { align: 'right', content: null, embed: false } },
    });
    expect(second.body.user.view).toEqual({
      enabled: true,
      align: 'right',
      embedColor: '#aabbcc',
      embed: false,
    });
    const again = await call('GET', '/api/user', { cookie: me.cookie });
    expect(again.body.user.view).toEqual(second.body.user.view);
    expect(Date.parse(second.body.user.updatedAt)).toBeGreaterThanOrEqual(
      Date.parse(first.body.user.updatedAt),
    );
  });

  test('concurrent PATCHes of different view keys all persist', async () => {
    const me = await signedInUser();
    const patches = [
      { enabled: true },
      { align: 'left' },
      { showMimetype: true },
      { content: 'c' },
      { embed: true },
      { embedTitle: 't' },
      { embedDescription: 'd' },
      { embedColor: '#010203' },
      { embedSiteName: 's' },
    ];
    const responses = await Promise.all(
      patches.map((view) => call('PATCH', '/api/user', { token: me.token, json: { view } })),
    );
    expect(responses.map((r) => r.status)).toEqual(patches.map(() => 200));
    const final = await call('GET', '/api/user', { token: me.token });
    expect(final.body.user.view).toEqual(Object.assign({}, ...patches));
  });

  test('renames, trimming the name; the old name becomes free', async () => {
    const me = await signedInUser();
    const newName = uniqueName('renamed');
    const response = await call('PATCH', '/api/user', {
      cookie: me.cookie,
      json: { username: `  ${newName}  ` },
    });
    expect(response.status).toBe(200);
    expect(response.body.user.username).toBe(newName);
    const other = await signedInUser();
    const takeOld = await call('PATCH', '/api/user', {
      cookie: other.cookie,
      json: { username: me.username },
    });
    expect(takeOld.status).toBe(200);
    expect(takeOld.body.user.username).toBe(me.username);
  });

  test("a case-only rename of one's own name is allowed", async () => {
    const me = await signedInUser();
    const response = await call('PATCH', '/api/user', {
      cookie: me.cookie,
      json: { username: me.username.toUpperCase() },
    });
    expect(response.status).toBe(200);
    expect(response.body.user.username).toBe(me.username.toUpperCase());
    const other = await signedInUser();
    const taken = await call('PATCH', '/api/user', { cookie: other.cookie, json: { username: me.username } });
    expect(taken.status).toBe(400);
  });

  test('a taken username (any case) is a 400 and writes nothing, not even the other properties', async () => {
    const me = await signedInUser();
    const other = await signedInUser();
    const before = await getUser(me.id, { consistent: true });
    const response = await call('PATCH', '/api/user', {
      cookie: me.cookie,
      json: {
        username: other.username.toUpperCase(),
        view: { enabled: true },
        avatar: PNG_1X1.toString('base64'),
      },
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'username is already taken', statusCode: 400 });
    expect(await getUser(me.id, { consistent: true })).toEqual(before);
    expect(await getAvatar(me.id)).toBeUndefined();
  });

  test('two users racing to rename to one name: exactly one wins', async () => {
    const users = await Promise.all([signedInUser(), signedInUser(), signedInUser(), signedInUser()]);
    const target = uniqueName('contested');
    const responses = await Promise.all(
      users.map((user) => call('PATCH', '/api/user', { cookie: user.cookie, json: { username: target } })),
    );
    expect(responses.filter((r) => r.status === 200)).toHaveLength(1);
    expect(
      responses.filter((r) => r.status === 400 && r.body.error === 'username is already taken'),
    ).toHaveLength(3);
    const winner = users[responses.findIndex((r) => r.status === 200)];
    const login = await call('POST', '/api/auth/login', {
      json: { username: target, password: winner?.password },
    });
    expect(login.body.user.id).toBe(winner?.id);
  });

  test('one user racing two renames ends with one name and exactly one name reserved', async () => {
    const me = await signedInUser();
    const [a, b] = [uniqueName('first'), uniqueName('second')];
    const responses = await Promise.all(
      [a, b].map((username) => call('PATCH', '/api/user', { cookie: me.cookie, json: { username } })),
    );
    expect(responses.some((r) => r.status === 200)).toBe(true);
    for (const r of responses) expect([200, 409]).toContain(r.status);
    const final = (await getUser(me.id, { consistent: true }))?.username as string;
    expect([a, b]).toContain(final);
    // The name not held must be free for someone else; the name held must not be.
    const other = await signedInUser();
    const loser = final === a ? b : a;
    expect(
      (await call('PATCH', '/api/user', { cookie: other.cookie, json: { username: final } })).status,
    ).toBe(400);
    expect(
      (await call('PATCH', '/api/user', { cookie: other.cookie, json: { username: loser } })).status,
    ).toBe(200);
  });

  test.each([
    ['an unknown property', { nickname: 'x' }],
    ['role (not changeable here)', { role: 'SUPERADMIN' }],
    ['an empty username', { username: '   ' }],
    ['a username over 64 characters', { username: 'x'.repeat(65) }],
    ['a username with a control character', { username: 'bad\u0007name' }],
    ['a username with a zero-width character', { username: 'bad\u200bname' }],
    ['a numeric username', { username: 42 }],
    ['a null username', { username: null }],
    ['a short password', { password: 'short' }],
    ['a password over 72 bytes', { password: 'é'.repeat(37) }],
    ['an unknown view key', { view: { theme: 'dark' } }],
    ['a view that is not an object', { view: 'dark' }],
    ['a bad align', { view: { align: 'justify' } }],
    ['a bad embed colour', { view: { embedColor: 'red' } }],
    ['a view string over 2000 characters', { view: { content: 'x'.repeat(2001) } }],
    ['a non-boolean view flag', { view: { enabled: 'yes' } }],
    ['an avatar that is not base64', { avatar: 'not base64!!' }],
    ['an avatar that is not an image', { avatar: Buffer.from('plain text here').toString('base64') }],
    [
      'an avatar claiming PNG but holding text',
      { avatar: `data:image/png;base64,${Buffer.from('hello world!').toString('base64')}` },
    ],
    [
      'an avatar over 1 MiB',
      { avatar: Buffer.concat([PNG_1X1, Buffer.alloc(1024 * 1024)]).toString('base64') },
    ],
    ['a numeric avatar', { avatar: 12 }],
  ])('%s is a 400 and changes nothing', async (_, json) => {
    const me = await signedInUser();
    const before = await getUser(me.id, { consistent: true });
    const response = await call('PATCH', '/api/user', {
      cookie: me.cookie,
      json: { view: { enabled: true }, ...json },
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: expect.any(String), statusCode: 400 });
    expect(await getUser(me.id, { consistent: true })).toEqual(before);
  });

  test('a password of exactly 72 bytes is accepted', async () => {
    const me = await signedInUser();
    const password = 'é'.repeat(36);
    expect((await call('PATCH', '/api/user', { cookie: me.cookie, json: { password } })).status).toBe(200);
    expect(
      (await call('POST', '/api/auth/login', { json: { username: me.username, password } })).status,
    ).toBe(200);
  });

  test('a body over the route limit is a 413', async () => {
    const me = await signedInUser();
    const response = await call('PATCH', '/api/user', {
      cookie: me.cookie,
      json: { avatar: 'A'.repeat(2_000_000) },
    });
    expect(response.status).toBe(413);
    expect(response.body.statusCode).toBe(413);
  });
});

describe('avatar', () => {
  test.each([
    ['PNG', PNG_1X1, 'image/png'],
    ['GIF', GIF_1X1, 'image/gif'],
    ['JPEG', JPEG_HEADER, 'image/jpeg'],
    ['WebP', WEBP_HEADER, 'image/webp'],
  ])('a %s avatar is stored and returned as a data URL of its real type', async (_, bytes, mime) => {
    const me = await signedInUser();
    // The claimed type is ignored: the content decides.
    const patch = await call('PATCH', '/api/user', {
      cookie: me.cookie,
      json: { avatar: `data:image/bmp;base64,${bytes.toString('base64')}` },
    });
    expect(patch.status).toBe(200);
    const response = await call('GET', '/api/user/avatar', { cookie: me.cookie });
    expect(response.status).toBe(200);
    // Plain text, as Zipline answers it: clients put `await res.text()` straight into an <img>.
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(response.text).toBe(`data:${mime};base64,${bytes.toString('base64')}`);
  });

  test('a 1 MiB avatar is stored in chunks and read back intact; a smaller one replaces it; null removes it', async () => {
    const me = await signedInUser();
    const big = Buffer.concat([PNG_1X1, Buffer.alloc(1024 * 1024 - PNG_1X1.length, 7)]);
    expect(
      (await call('PATCH', '/api/user', { cookie: me.cookie, json: { avatar: big.toString('base64') } }))
        .status,
    ).toBe(200);
    expect((await getAvatar(me.id))?.bytes.equals(big)).toBe(true);
    expect(
      (await call('PATCH', '/api/user', { cookie: me.cookie, json: { avatar: GIF_1X1.toString('base64') } }))
        .status,
    ).toBe(200);
    expect((await call('GET', '/api/user/avatar', { cookie: me.cookie })).text).toBe(
      `data:image/gif;base64,${GIF_1X1.toString('base64')}`,
    );
    expect((await call('PATCH', '/api/user', { cookie: me.cookie, json: { avatar: null } })).status).toBe(
      200,
    );
    const gone = await call('GET', '/api/user/avatar', { cookie: me.cookie });
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ error: 'no avatar is set', statusCode: 404 });
  });

  test('GET /api/user/avatar needs authentication', async () => {
    expect((await call('GET', '/api/user/avatar')).status).toBe(401);
  });
});
