import { call } from '../support/client.ts';
import { signedInUser } from '../support/users.ts';

/** Short links through the HTTP path (issue 34): Zipline 4.4's `/api/user/urls` routes and their rules. */

const shorten = (token: string, json: unknown, headers: Record<string, string> = {}) =>
  call('POST', '/api/user/urls', { token, json, headers });

const uniqueVanity = (prefix = 'v') =>
  `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

test('a link is created as Zipline answers it: the Url and its full short link, no password hash', async () => {
  const owner = await signedInUser();
  const created = await shorten(
    owner.token,
    { destination: 'https://example.com/a?b=c' },
    { 'x-zipline-max-views': '3', 'x-zipline-password': 'hunter22', 'x-zipline-domain': 'sho.rt' },
  );
  expect(created.status).toBe(200);
  const link = created.body;
  expect(link).toEqual({
    id: link.code,
    code: expect.stringMatching(/^[a-z0-9]{12}$/),
    createdAt: expect.any(String),
    updatedAt: expect.any(String),
    vanity: null,
    destination: 'https://example.com/a?b=c',
    views: 0,
    maxViews: 3,
    enabled: true,
    userId: owner.id,
    password: true,
    url: `https://sho.rt/go/${link.code}`,
  });
  expect(created.text).not.toContain('hunter22');
  expect(created.text).not.toMatch(/\$2[aby]\$/);

  const plain = await shorten(
    owner.token,
    { destination: 'http://example.org' },
    { 'x-zipline-no-json': 'true' },
  );
  expect(plain.status).toBe(200);
  expect(plain.headers['content-type']).toBe('text/plain; charset=utf-8');
  expect(plain.text).toMatch(/^https:\/\/localhost\/go\/[a-z0-9]{12}$/);

  const vanity = uniqueVanity('My');
  const named = await shorten(owner.token, { destination: 'https://example.net', vanity, enabled: false });
  expect(named.body).toMatchObject({ vanity, enabled: false, url: `https://localhost/go/${vanity}` });
});

test.each(
  [
    ['javascript:alert(1)'],
    ['data:text/html,<script>alert(1)</script>'],
    ['file:///etc/passwd'],
    ['ftp://example.com/x'],
    ['//example.com/x'],
    ['example.com'],
    ['https://exa mple.com'],
    ['https://example.com/\u0000'],
    ['https://example.com/\u202e'],
    [`https://example.com/${'a'.repeat(2048)}`],
    [''],
    [42],
  ].map(([destination]) => [
    typeof destination === 'string' && destination.length > 60
      ? `a URL of ${destination.length} characters`
      : JSON.stringify(destination),
    destination,
  ]),
)('destination %s is a 400 that stores nothing', async (_label, destination) => {
  const owner = await signedInUser();
  const refused = await shorten(owner.token, { destination });
  expect(refused.status).toBe(400);
  expect(refused.body.error).toMatch(/^destination: must be an http or https URL of at most 2048 characters/);
  expect((await call('GET', '/api/user/urls', { token: owner.token })).body).toEqual([]);
});

test('vanities: unique across users ignoring case, reserved words and bad characters refused, 400/409 change nothing', async () => {
  const [alice, bob] = [await signedInUser(), await signedInUser()];
  const vanity = uniqueVanity('Taken');
  expect((await shorten(alice.token, { destination: 'https://a.example', vanity })).status).toBe(200);
  const taken = await shorten(bob.token, { destination: 'https://b.example', vanity: vanity.toLowerCase() });
  expect(taken.status).toBe(409);
  expect(taken.body.error).toBe('vanity is already taken');
  for (const [bad, message] of [
    ['login', 'vanity: is a reserved word'],
    ['API', 'vanity: is a reserved word'],
    ['a/b', 'vanity: must be 1 to 100 of the characters A-Z a-z 0-9 . _ ~ -'],
    ['..', 'vanity: must not be only dots'],
    ['x'.repeat(101), 'vanity: must be 1 to 100 of the characters A-Z a-z 0-9 . _ ~ -'],
  ]) {
    const refused = await shorten(bob.token, { destination: 'https://b.example', vanity: bad });
    expect([refused.status, refused.body.error]).toEqual([400, message]);
  }
  expect((await call('GET', '/api/user/urls', { token: bob.token })).body).toEqual([]);
});

test('twenty concurrent claims of one vanity: exactly one link gets it', async () => {
  const users = await Promise.all(Array.from({ length: 4 }, () => signedInUser()));
  const vanity = uniqueVanity('race');
  const attempts = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      shorten((users[i % 4] as { token: string }).token, { destination: `https://example.com/${i}`, vanity }),
    ),
  );
  const statuses = attempts.map((attempt) => attempt.status).sort();
  expect(statuses.filter((status) => status === 200)).toHaveLength(1);
  expect(statuses.filter((status) => status === 409)).toHaveLength(19);
  const lists = await Promise.all(users.map((user) => call('GET', '/api/user/urls', { token: user.token })));
  expect(lists.flatMap((list) => list.body)).toHaveLength(1);
});

test('maxUrls is enforced at creation, also for concurrent creations, and a deletion frees a place', async () => {
  const admin = await signedInUser('ADMIN');
  const user = await signedInUser();
  const quota = { filesType: 'BY_FILES', maxFiles: 100, maxUrls: 3 };
  const patched = await call('PATCH', `/api/users/${user.id}`, { token: admin.token, json: { quota } });
  expect(patched.body.quota).toEqual({ filesQuota: 'BY_FILES', maxBytes: null, maxFiles: 100, maxUrls: 3 });
  const attempts = await Promise.all(
    Array.from({ length: 10 }, (_, i) => shorten(user.token, { destination: `https://example.com/${i}` })),
  );
  expect(attempts.filter((attempt) => attempt.status === 200)).toHaveLength(3);
  const refused = attempts.find((attempt) => attempt.status !== 200);
  expect([refused?.status, refused?.body.error]).toEqual([
    403,
    'shortening this URL would exceed your quota of 3 URLs',
  ]);
  const links = (await call('GET', '/api/user/urls', { token: user.token })).body;
  expect(links).toHaveLength(3);
  expect((await call('DELETE', `/api/user/urls/${links[0].id}`, { token: user.token })).status).toBe(200);
  expect((await shorten(user.token, { destination: 'https://example.com/again' })).status).toBe(200);
  expect((await shorten(user.token, { destination: 'https://example.com/over' })).status).toBe(403);
});

test('list and search by destination, vanity or code (case ignored); get, patch, delete', async () => {
  const owner = await signedInUser();
  const vanity = uniqueVanity('Docs');
  const a = (await shorten(owner.token, { destination: 'https://Docs.example.com/guide', vanity })).body;
  const b = (await shorten(owner.token, { destination: 'https://other.example.org' })).body;
  const search = async (query: string) =>
    (await call('GET', `/api/user/urls?${query}`, { token: owner.token })).body.map(
      (link: { id: string }) => link.id,
    );
  expect(await search('')).toEqual([b.id, a.id]);
  expect(await search('searchQuery=docs.EXAMPLE')).toEqual([a.id]);
  expect(await search(`searchField=vanity&searchQuery=${vanity.toUpperCase()}`)).toEqual([a.id]);
  expect(await search(`searchField=code&searchQuery=${b.code.slice(2, 8)}`)).toEqual([b.id]);
  expect(
    (await call('GET', '/api/user/urls?searchField=owner&searchQuery=x', { token: owner.token })).status,
  ).toBe(400);

  const got = await call('GET', `/api/user/urls/${a.id}`, { token: owner.token });
  expect(got.body).toEqual({ ...a, url: undefined, views: 0 });
  const renamed = uniqueVanity('new');
  const patched = await call('PATCH', `/api/user/urls/${a.id}`, {
    token: owner.token,
    json: {
      vanity: renamed,
      destination: 'https://example.com/moved',
      maxViews: 5,
      password: 'pw pw pw',
      enabled: false,
    },
  });
  expect(patched.status).toBe(200);
  expect(patched.body).toMatchObject({
    vanity: renamed,
    destination: 'https://example.com/moved',
    maxViews: 5,
    password: true,
    enabled: false,
  });
  // The old vanity is free again, the new one is taken.
  const other = await signedInUser();
  expect((await shorten(other.token, { destination: 'https://x.example', vanity })).status).toBe(200);
  expect((await shorten(other.token, { destination: 'https://x.example', vanity: renamed })).status).toBe(
    409,
  );
  expect(
    (
      await call('PATCH', `/api/user/urls/${a.id}`, {
        token: owner.token,
        json: { destination: 'javascript:x' },
      })
    ).status,
  ).toBe(400);
  const cleared = await call('PATCH', `/api/user/urls/${a.id}`, {
    token: owner.token,
    json: { vanity: null, maxViews: null, password: null, enabled: true },
  });
  expect(cleared.body).toMatchObject({ vanity: null, maxViews: null, password: false, enabled: true });

  // A vanity spelling the link's own code is that one name, not a second claim of it.
  const ownCode = await call('PATCH', `/api/user/urls/${b.id}`, {
    token: owner.token,
    json: { vanity: b.code.toUpperCase() },
  });
  expect([ownCode.status, ownCode.body.vanity]).toEqual([200, b.code.toUpperCase()]);
  expect((await call('GET', `/go/${b.code}`)).status).toBe(302);

  const deleted = await call('DELETE', `/api/user/urls/${a.id}`, { token: owner.token });
  expect(deleted.body.id).toBe(a.id);
  expect((await call('GET', `/api/user/urls/${a.id}`, { token: owner.token })).status).toBe(404);
  expect((await call('GET', `/go/${a.code}`)).status).toBe(404);
});

test('another user’s link is unknown to every route: 404, and nothing changes', async () => {
  const [owner, stranger] = [await signedInUser(), await signedInUser()];
  const link = (await shorten(owner.token, { destination: 'https://example.com/mine' })).body;
  const as = (method: string, json?: unknown) =>
    call(method, `/api/user/urls/${link.id}`, { token: stranger.token, ...(json ? { json } : {}) });
  for (const response of [
    await as('GET'),
    await as('PATCH', { destination: 'https://evil.example' }),
    await as('DELETE'),
  ]) {
    expect([response.status, response.body.error]).toEqual([404, 'url not found']);
  }
  expect((await call('GET', '/api/user/urls', { token: stranger.token })).body).toEqual([]);
  const still = await call('GET', `/api/user/urls/${link.id}`, { token: owner.token });
  expect(still.body.destination).toBe('https://example.com/mine');
  const go = await call('GET', `/go/${link.code}`);
  expect([go.status, go.headers.location]).toEqual([302, 'https://example.com/mine']);
});

test('deleting a user deletes their links: the names answer 404 and a vanity is free again', async () => {
  const admin = await signedInUser('ADMIN');
  const user = await signedInUser();
  const vanity = uniqueVanity('gone');
  const link = (await shorten(user.token, { destination: 'https://example.com/bye', vanity })).body;
  expect((await call('GET', `/go/${link.code}`)).status).toBe(302);
  const deleted = await call('DELETE', `/api/users/${user.id}`, { token: admin.token, json: {} });
  expect(deleted.status).toBe(200);
  expect((await call('GET', `/go/${link.code}`)).status).toBe(404);
  expect((await call('GET', `/go/${vanity}`)).status).toBe(404);
  expect((await shorten(admin.token, { destination: 'https://example.com/new', vanity })).status).toBe(200);
});
