import { call, cookieValue } from '../support/client.ts';
import { signedInUser } from '../support/users.ts';

/**
 * `GET/DELETE /api/user/sessions` (issue 36) through the HTTP path: each session with when it began
 * and its client and device (parsed from the sign-in's User-Agent by bowser); ending one stops its
 * cookie at once; another user's session is 404; the id shown is not a credential.
 */
const FIREFOX_MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:133.0) Gecko/20100101 Firefox/133.0';
const CHROME_ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.81 Mobile Safari/537.36';

/** Another sign-in of `user` from a client with `userAgent`: its cookie. */
async function signInAgain(user: { username: string; password: string }, userAgent?: string) {
  const login = await call('POST', '/api/auth/login', {
    json: { username: user.username, password: user.password },
    headers: userAgent === undefined ? {} : { 'user-agent': userAgent },
  });
  expect(login.status).toBe(200);
  return cookieValue(login.cookies[0]);
}

const sessions = async (cookie: string) => {
  const response = await call('GET', '/api/user/sessions', { cookie });
  expect(response.status).toBe(200);
  return response.body;
};

const endSessions = (cookie: string, json: unknown) => call('DELETE', '/api/user/sessions', { cookie, json });

test('each session shows when it began and the client and device it signed in from, the current apart', async () => {
  const user = await signedInUser();
  const before = Date.now();
  const firefox = await signInAgain(user, FIREFOX_MAC);
  const phone = await signInAgain(user, CHROME_ANDROID);
  const listed = await sessions(firefox);
  expect(listed.current).toEqual({
    id: expect.stringMatching(/^[A-Za-z0-9_-]{27}$/),
    createdAt: expect.any(String),
    ua: FIREFOX_MAC,
    client: 'Firefox 133',
    device: 'macOS Sonoma · desktop',
    userId: user.id,
  });
  expect(Date.parse(listed.current.createdAt)).toBeGreaterThanOrEqual(before - 1000);
  expect(listed.other).toHaveLength(2);
  // Newest first: the phone, then the fixture's sign-in without a User-Agent.
  expect(listed.other[0]).toMatchObject({
    client: 'Chrome 131',
    device: 'Android 14 · mobile',
    ua: CHROME_ANDROID,
  });
  expect(listed.other[1]).toMatchObject({ client: 'Unknown client', device: 'Unknown device', ua: '' });
  expect((await sessions(phone)).current.client).toBe('Chrome 131');
  // The User's `sessions` stays the contract's list of ids: the same ids.
  const me = await call('GET', '/api/user', { cookie: firefox });
  expect([...me.body.user.sessions].sort()).toEqual(
    [listed.current.id, ...listed.other.map((session: { id: string }) => session.id)].sort(),
  );
});

test('ending one session stops its cookie at once; the others keep working', async () => {
  const user = await signedInUser();
  const mine = await signInAgain(user, FIREFOX_MAC);
  const phone = await signInAgain(user, CHROME_ANDROID);
  const phoneId = (await sessions(phone)).current.id;
  const ended = await endSessions(mine, { sessionId: phoneId });
  expect(ended.status).toBe(200);
  expect(ended.body.other.map((session: { id: string }) => session.id)).not.toContain(phoneId);
  expect((await call('GET', '/api/user', { cookie: phone })).status).toBe(401);
  expect((await call('GET', '/api/user', { cookie: mine })).status).toBe(200);
  expect((await call('GET', '/api/user', { cookie: user.cookie })).status).toBe(200);
  // Ended already: nothing left to end.
  expect((await endSessions(mine, { sessionId: phoneId })).status).toBe(404);
});

test('all: true ends every session but the caller’s', async () => {
  const user = await signedInUser();
  const others = [await signInAgain(user, CHROME_ANDROID), await signInAgain(user), user.cookie];
  const mine = await signInAgain(user, FIREFOX_MAC);
  const ended = await endSessions(mine, { all: true });
  expect(ended.status).toBe(200);
  expect(ended.body).toMatchObject({ current: { client: 'Firefox 133' }, other: [] });
  for (const cookie of others) expect((await call('GET', '/api/user', { cookie })).status).toBe(401);
  expect((await call('GET', '/api/user', { cookie: mine })).status).toBe(200);
  expect((await call('GET', '/api/user', { cookie: mine })).body.user.sessions).toEqual([
    ended.body.current.id,
  ]);
});

test("another user's session id is 404 and changes nothing; the caller's own is 400", async () => {
  const [me, other] = await Promise.all([signedInUser(), signedInUser()]);
  const theirs = (await sessions(other.cookie)).current.id;
  const refused = await endSessions(me.cookie, { sessionId: theirs });
  expect(refused.status).toBe(404);
  expect((await call('GET', '/api/user', { cookie: other.cookie })).status).toBe(200);
  const own = (await sessions(me.cookie)).current.id;
  const current = await endSessions(me.cookie, { sessionId: own });
  expect(current.status).toBe(400);
  expect(current.body.error).toMatch(/sign out/);
  expect((await call('GET', '/api/user', { cookie: me.cookie })).status).toBe(200);
});

test('bad bodies are 400 and end nothing', async () => {
  const user = await signedInUser();
  const phone = await signInAgain(user, CHROME_ANDROID);
  for (const json of [
    {},
    { all: false },
    { all: 'yes' },
    { sessionId: 42 },
    { sessionId: 'a b' },
    { extra: 1 },
  ]) {
    expect((await endSessions(user.cookie, json)).status).toBe(400);
  }
  expect((await call('DELETE', '/api/user/sessions', { cookie: user.cookie })).status).toBe(400);
  expect((await call('GET', '/api/user', { cookie: phone })).status).toBe(200);
});

test('the API token lists (current: null) but cannot end sessions; an id shown is no credential', async () => {
  const user = await signedInUser();
  const listed = await call('GET', '/api/user/sessions', { token: user.token });
  expect(listed.status).toBe(200);
  expect(listed.body.current).toBeNull();
  const id = listed.body.other[0].id as string;
  const byToken = await call('DELETE', '/api/user/sessions', { token: user.token, json: { all: true } });
  expect(byToken.status).toBe(403);
  expect(byToken.body.error).toMatch(/needs a session/);
  expect((await call('GET', '/api/user', { cookie: user.cookie })).status).toBe(200);
  // The id is a handle: as a cookie or a bearer token it signs nobody in.
  expect((await call('GET', '/api/user', { cookie: `service_session=${id}` })).status).toBe(401);
  expect((await call('GET', '/api/user', { token: id })).status).toBe(401);
});

test('logging out removes the session and its client from the list', async () => {
  const user = await signedInUser();
  const phone = await signInAgain(user, CHROME_ANDROID);
  expect((await call('POST', '/api/auth/logout', { cookie: phone })).status).toBe(200);
  const listed = await sessions(user.cookie);
  expect(listed.other).toEqual([]);
});
