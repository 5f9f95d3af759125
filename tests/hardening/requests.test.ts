import '../support/allowed-origins.ts';
import { call } from '../support/client.ts';
import { cookieWriteRoutes, everyRoute, jsonBodyRoutes, PUBLIC_HANDLERS, urlFor } from '../support/routes.ts';
import { changedKeys, tableSnapshot } from '../support/snapshot.ts';
import { signedInUser } from '../support/users.ts';

const HOST = 'files.example.test';
/** A body each write route refuses after authentication (400), so a pass changes nothing. */
const refusedBody = { json: { notAField: true } };

describe('CSRF defence on cookie-authenticated writes', () => {
  test.each(cookieWriteRoutes)(
    '%s: a cross-site browser request with the cookie is a 403 that changes nothing',
    async (_, route) => {
      const admin = await signedInUser('SUPERADMIN');
      const before = await tableSnapshot();
      const crossSite: Record<string, string>[] = [
        { 'sec-fetch-site': 'cross-site' },
        { 'Sec-Fetch-Site': 'Cross-Site', host: HOST },
        { origin: 'https://evil.example' },
        { origin: 'null' },
        { origin: `http://${HOST}`, host: HOST },
        { origin: `https://${HOST}.evil.example`, host: HOST },
      ];
      for (const headers of crossSite) {
        const response = await call(route.method, urlFor(route), {
          cookie: admin.cookie,
          headers,
          ...refusedBody,
        });
        expect(response.status).toBe(403);
        expect(response.body).toEqual({ error: 'cross-site request refused', statusCode: 403 });
      }
      expect(changedKeys(before, await tableSnapshot())).toEqual([]);
      // The session still works: nothing was logged out.
      expect((await call('GET', '/api/user', { cookie: admin.cookie })).status).toBe(200);
    },
  );

  test.each(cookieWriteRoutes)(
    '%s: same-origin, allowed-origin, header-less and token requests pass',
    async (_, route) => {
      for (const [options, label] of [
        [
          { headers: { origin: `https://${HOST}`, host: HOST, 'sec-fetch-site': 'same-origin' } },
          'own origin',
        ],
        [{ headers: { origin: 'https://dashboard.example.test', 'sec-fetch-site': 'same-site' } }, 'allowed'],
        [{ headers: { origin: 'https://other.example.test' } }, 'allowed, other case'],
        [{ headers: {} }, 'no browser headers'],
      ] as const) {
        const admin = await signedInUser('SUPERADMIN');
        const response = await call(route.method, urlFor(route), {
          cookie: admin.cookie,
          ...options,
          ...refusedBody,
        });
        expect([label, response.status]).not.toEqual([label, 403]);
      }
      const admin = await signedInUser('SUPERADMIN');
      const byToken = await call(route.method, urlFor(route), {
        token: admin.token,
        headers: { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' },
        ...refusedBody,
      });
      // Not the CSRF refusal (what changes how one signs in refuses tokens for its own reason:
      // security.md, 'A token is not the account').
      expect(byToken.body.error).not.toBe('cross-site request refused');
    },
  );

  test('reads with the cookie are not refused (a cross-site page cannot read the answer)', async () => {
    const me = await signedInUser();
    const response = await call('GET', '/api/user', {
      cookie: me.cookie,
      headers: { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' },
    });
    expect(response.status).toBe(200);
  });

  test('login from a cross-site page is refused (login CSRF) before anything is counted or written', async () => {
    const me = await signedInUser();
    const before = await tableSnapshot();
    const crossSite: Record<string, string>[] = [
      { 'sec-fetch-site': 'cross-site' },
      { origin: 'https://evil.example' },
    ];
    for (const headers of crossSite) {
      const response = await call('POST', '/api/auth/login', {
        json: { username: me.username, password: me.password },
        headers,
      });
      expect(response.status).toBe(403);
      expect(response.cookies).toEqual([]);
    }
    expect(changedKeys(before, await tableSnapshot())).toEqual([]);
    const sameOrigin = await call('POST', '/api/auth/login', {
      json: { username: me.username, password: me.password },
      headers: { origin: `https://${HOST}`, host: HOST, 'sec-fetch-site': 'same-origin' },
    });
    expect(sameOrigin.status).toBe(200);
  });
});

describe('security headers on every response', () => {
  test.each(everyRoute)('%s: nosniff and no-store, anonymous, by cookie and by token', async (_, route) => {
    const admin = await signedInUser('SUPERADMIN');
    for (const auth of [
      {},
      { cookie: admin.cookie },
      { token: admin.token },
      { cookie: 'service_session=forged' },
    ]) {
      const response = await call(route.method, urlFor(route), { ...auth, ...refusedBody });
      expect(response.status).toBeLessThan(500);
      expect(response.headers).toMatchObject({
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
        'access-control-allow-origin': '*',
      });
    }
  });
});

describe('input limits', () => {
  test.each(everyRoute)(
    '%s: a session cookie over 4 KB is a plain 401 or a refusal, never a crash',
    async (_, route) => {
      const response = await call(route.method, urlFor(route), {
        cookie: `service_session=${'A'.repeat(4097)}`,
        ...refusedBody,
      });
      expect(response.status).toBeLessThan(500);
      if (!PUBLIC_HANDLERS.has(route.handler)) {
        expect(response.body).toEqual({ error: 'not logged in', statusCode: 401 });
      }
    },
  );

  test('headers and cookies over 16 KB together are a 413', async () => {
    const me = await signedInUser();
    const response = await call('GET', '/api/user', {
      cookie: `${me.cookie}; filler=${'x'.repeat(16 * 1024)}`,
    });
    expect(response.status).toBe(413);
    expect(response.body).toEqual({ error: 'request headers are too large', statusCode: 413 });
  });

  test('a query string over 4 KB or with more than 32 parameters is a 400', async () => {
    const admin = await signedInUser('ADMIN');
    const long = await call('GET', `/api/users?cursor=${'a'.repeat(4097)}`, { cookie: admin.cookie });
    expect(long.status).toBe(400);
    expect(long.body).toEqual({ error: 'query string is too long', statusCode: 400 });
    const many = Array.from({ length: 33 }, (_, i) => `p${i}=1`).join('&');
    const manyResponse = await call('GET', `/api/user?${many}`, { cookie: admin.cookie });
    expect(manyResponse.body).toEqual({ error: 'too many query parameters', statusCode: 400 });
    expect(
      (await call('GET', `/api/user?${many.split('&').slice(0, 32).join('&')}`, { cookie: admin.cookie }))
        .status,
    ).toBe(200);
  });

  const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype'];
  test.each(PROTOTYPE_KEYS)(
    'a "%s" key is refused at any depth, on every JSON route, changing nothing',
    async (key) => {
      const admin = await signedInUser('SUPERADMIN');
      const before = await tableSnapshot();
      const bodies = [
        `{"${key}":{"polluted":true}}`,
        `{"view":{"${key}":{"polluted":true}}}`,
        `{"view":{"enabled":true},"quota":{"filesQuota":"BY_FILES","maxFiles":1,"x":[{"${key}":1}]}}`,
        `{"username":"fine","password":"long enough","${key}":null}`,
      ];
      for (const [, route] of jsonBodyRoutes) {
        for (const raw of bodies) {
          const response = await call(route.method, urlFor(route), {
            raw,
            headers: { 'content-type': 'application/json' },
            cookie: admin.cookie,
          });
          expect(response.body).toEqual({ error: `${key}: property name is not allowed`, statusCode: 400 });
        }
      }
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(changedKeys(before, await tableSnapshot())).toEqual([]);
    },
  );
});
