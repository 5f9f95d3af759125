import { unsealSession } from '#shared/auth/session';
import { config } from '#shared/config/service';
import { getUser } from '#shared/users/store';
import { call, cookieValue, uniqueName } from '../support/client.ts';
import { tableSnapshot } from '../support/snapshot.ts';
import { signedInUser } from '../support/users.ts';

let addressCounter = 0;
const freshAddress = () => `198.18.${Math.floor(++addressCounter / 250)}.${addressCounter % 250}`;

async function login(username: string, password: string) {
  const response = await call('POST', '/api/auth/login', {
    json: { username, password },
    sourceIp: freshAddress(),
  });
  expect(response.status).toBe(200);
  const cookie = cookieValue(response.cookies[0]);
  const claims = await unsealSession(cookie.slice(cookie.indexOf('=') + 1));
  return { cookie, sessionId: claims?.sessionId as string };
}

const storedSessions = async (userId: string) =>
  Object.keys((await getUser(userId, { consistent: true }))?.sessions ?? {}).sort();

/** The username constraint items (`USERNAME#<name>`) that point at a user. */
async function usernameItemsOf(userId: string): Promise<string[]> {
  const items = [...(await tableSnapshot()).values()].map((text) => JSON.parse(text));
  return items
    .filter((item) => item.sk === 'USERNAME' && item.userId === userId)
    .map((item) => item.pk)
    .sort();
}

describe('parallel requests for one user end in a consistent state', () => {
  test('logins and logouts at once: the sessions are exactly the survivors plus the new ones', async () => {
    const me = await signedInUser();
    const earlier = [await login(me.username, me.password), await login(me.username, me.password)];
    const loggingOut = [{ cookie: me.cookie }, ...earlier];
    const kept = await login(me.username, me.password);
    const [outcomes, logins] = await Promise.all([
      Promise.all(loggingOut.map(({ cookie }) => call('POST', '/api/auth/logout', { cookie }))),
      Promise.all(Array.from({ length: 5 }, () => login(me.username, me.password))),
    ]);
    expect(outcomes.map((response) => response.status)).toEqual([200, 200, 200]);
    expect(await storedSessions(me.id)).toEqual([kept, ...logins].map((login) => login.sessionId).sort());
    for (const { cookie } of loggingOut)
      expect((await call('GET', '/api/user', { cookie })).status).toBe(401);
    for (const { cookie } of [kept, ...logins])
      expect((await call('GET', '/api/user', { cookie })).status).toBe(200);
  });

  test('parallel logins beyond the cap: exactly the cap remains, the oldest dropped first', async () => {
    const cap = config().maxSessions;
    const me = await signedInUser();
    const sequential = [];
    for (let i = 1; i < cap - 2; i++) sequential.push(await login(me.username, me.password));
    const parallel = await Promise.all(
      Array.from({ length: cap - 2 }, () => login(me.username, me.password)),
    );
    // 2 × (cap − 2) logins (the signed-in one included): the newest sequential two survive with every parallel one.
    const expected = [...sequential.slice(-2), ...parallel].map((login) => login.sessionId).sort();
    expect(await storedSessions(me.id)).toEqual(expected);
  });

  test('view PATCHes of different keys and renames at once: every accepted change persists', async () => {
    const me = await signedInUser();
    const view = {
      enabled: true,
      align: 'center',
      showMimetype: false,
      content: 'content',
      embed: true,
      embedTitle: 'title',
      embedDescription: 'description',
      embedColor: '#123abc',
      embedSiteName: 'site',
    };
    const names = Array.from({ length: 4 }, () => uniqueName('racer'));
    const [viewResponses, renameResponses] = await Promise.all([
      Promise.all(
        Object.entries(view).map(([key, value]) =>
          call('PATCH', '/api/user', { cookie: me.cookie, json: { view: { [key]: value } } }),
        ),
      ),
      Promise.all(
        names.map((username) => call('PATCH', '/api/user', { cookie: me.cookie, json: { username } })),
      ),
    ]);
    // A refused request (409 changed meanwhile, 503 busy) must have changed nothing, an accepted one must show.
    for (const response of [...viewResponses, ...renameResponses])
      expect([200, 409, 503]).toContain(response.status);
    const acceptedView = Object.fromEntries(
      Object.entries(view).filter((_, index) => viewResponses[index]?.status === 200),
    );
    expect(Object.keys(acceptedView).length).toBeGreaterThan(0);
    const stored = await getUser(me.id, { consistent: true });
    expect(stored?.view).toEqual(acceptedView);
    const renamed = names.filter((_, index) => renameResponses[index]?.status === 200);
    expect(renamed.length).toBeGreaterThan(0);
    expect(renamed).toContain(stored?.username);
    // Exactly one username item, the current name's: no name held twice, none lost.
    expect(await usernameItemsOf(me.id)).toEqual([`USERNAME#${stored?.username.toLowerCase()}`]);
  });

  test('two view PATCHes of the same key at once: one of the two values, never a mix or a loss', async () => {
    const me = await signedInUser();
    const responses = await Promise.all(
      ['first', 'second'].map((content) =>
        call('PATCH', '/api/user', {
          cookie: me.cookie,
          json: { view: { content, embed: content === 'first' } },
        }),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual([200, 200]);
    const { view } = (await getUser(me.id, { consistent: true })) as { view: Record<string, unknown> };
    expect([
      { content: 'first', embed: true },
      { content: 'second', embed: false },
    ]).toContainEqual(view);
  });

  test('parallel token resets: exactly one returned token works, the one whose nonce is stored', async () => {
    const me = await signedInUser();
    const responses = await Promise.all(
      Array.from({ length: 8 }, () => call('PATCH', '/api/user/token', { cookie: me.cookie })),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(8).fill(200));
    const tokens = responses.map((response) => response.body.token as string);
    expect(new Set(tokens).size).toBe(8);
    const working = [];
    for (const token of [me.token, ...tokens]) {
      if ((await call('GET', '/api/user', { token })).status === 200) working.push(token);
    }
    expect(working).toHaveLength(1);
    const stored = await getUser(me.id, { consistent: true });
    expect(working[0]?.split('.')[2]).toBe(stored?.tokenNonce);
  });
});
