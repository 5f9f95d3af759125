import { randomBytes } from 'node:crypto';
import { SESSION_REQUIRED } from '#shared/auth/authenticate';
import { LAST_SIGN_IN_METHOD } from '#shared/users/sign-in/sign-in-methods';
import { sendChunk } from '../support/chunks.ts';
import { call, cookieValue } from '../support/client.ts';
import { type OidcProvider, providerSignIn, startOidcProvider } from '../support/oidc.ts';
import { changedKeys, tableSnapshot } from '../support/snapshot.ts';
import { signedInUser } from '../support/users.ts';

/**
 * Issue 33's sign-in providers as Zipline 4.4 clients meet them, through the route table's handlers
 * in this process against the real OIDC provider process: the provider's answer taken on
 * `GET /api/auth/oauth/{provider}` itself (the redirect URI registered for Zipline), Zipline's
 * `GET`/`DELETE /api/auth/oauth` (the caller's linked providers), and `GET /api/server/public`.
 */
let provider: OidcProvider;

beforeAll(async () => {
  provider = await startOidcProvider();
  Object.assign(process.env, provider.env({ OAUTH_SIGNUP: 'true' }));
});

afterAll(() => provider.stop());

const sessionOf = (response: { cookies: string[] }) =>
  cookieValue(response.cookies.find((value) => value.startsWith('service_session=')));

describe("the provider's answer on GET /api/auth/oauth/{provider}, as Zipline takes it", () => {
  test('the start names that path as redirect_uri; the provider comes back to it and signs up, then in', async () => {
    await provider.signInAs({ sub: 'zipline-path', username: 'zipline.path' });
    const start = await call('GET', '/api/auth/oauth/oidc', { headers: { host: 'files.example.com' } });
    expect(start.status).toBe(302);
    const authorize = new URL(start.headers.location as string);
    expect(authorize.searchParams.get('redirect_uri')).toBe('https://files.example.com/api/auth/oauth/oidc');
    const back = new URL((await fetch(authorize, { redirect: 'manual' })).headers.get('location') as string);
    expect(back.pathname).toBe('/api/auth/oauth/oidc');
    expect([...back.searchParams.keys()].sort()).toEqual(['code', 'state']);

    const signedUp = await call('GET', back.pathname + back.search, {
      cookie: cookieValue(start.cookies[0]),
      headers: { host: 'files.example.com' },
    });
    expect(signedUp.status).toBe(302);
    expect(signedUp.headers.location).toBe('/');
    // The flow cookie is cleared, a session opened.
    expect(signedUp.cookies.some((value) => /^service_oauth=;.*Max-Age=0/.test(value))).toBe(true);
    const me = await call('GET', '/api/user', { cookie: sessionOf(signedUp) });
    expect(me.body.user.username).toBe('zipline.path');

    // Signing in again the same way opens a session for the same user.
    const again = await providerSignIn(provider, { sub: 'zipline-path', username: 'zipline.path' });
    expect(again.headers.location).toBe('/');
    expect((await call('GET', '/api/user', { cookie: sessionOf(again) })).body.user.id).toBe(me.body.user.id);
  });

  test('a link from settings comes back to the same path and links the provider account', async () => {
    const user = await signedInUser();
    const linked = await providerSignIn(
      provider,
      { sub: 'linked-z', username: 'linked.z' },
      { cookie: user.cookie, link: true },
    );
    expect(linked.headers.location).toBe('/settings?linked=oidc');
    const me = await call('GET', '/api/user', { cookie: user.cookie });
    expect(me.body.user.oauthProviders).toEqual([
      { provider: 'oidc', username: 'linked.z', providerId: 'linked-z', createdAt: expect.any(String) },
    ]);
  });

  test("the provider's error, a forged state or no flow: back to the sign-in page, nothing written", async () => {
    const before = await tableSnapshot();
    for (const query of ['error=access_denied', 'code=c&state=forged', 'state=only']) {
      const answer = await call('GET', `/api/auth/oauth/oidc?${query}`);
      expect(answer.status).toBe(302);
      expect(answer.headers.location).toMatch(/^\/login\?error=/);
      expect(answer.cookies.some((value) => value.startsWith('service_session='))).toBe(false);
    }
    expect(changedKeys(before, await tableSnapshot())).toEqual([]);
    // Bounded as on /callback: an over-long state is a 400.
    expect((await call('GET', `/api/auth/oauth/oidc?state=${'s'.repeat(300)}`)).status).toBe(400);
  });

  test('/callback still takes the answer of a flow started here (the redirect URI it names is kept)', async () => {
    await provider.signInAs({ sub: 'old-path', username: 'old.path' });
    const start = await call('GET', '/api/auth/oauth/oidc');
    const back = new URL(
      (await fetch(start.headers.location as string, { redirect: 'manual' })).headers.get(
        'location',
      ) as string,
    );
    const signedUp = await call('GET', `/api/auth/oauth/oidc/callback${back.search}`, {
      cookie: cookieValue(start.cookies[0]),
    });
    expect(signedUp.headers.location).toBe('/');
  });
});

describe("Zipline's GET and DELETE /api/auth/oauth", () => {
  const linkedUser = async (sub: string) => {
    const user = await signedInUser();
    await providerSignIn(provider, { sub, username: `${sub}.name` }, { cookie: user.cookie, link: true });
    return user;
  };

  test("GET lists the caller's linked providers in Zipline's shape, no token in it; the API token may read it", async () => {
    const user = await linkedUser('listed');
    const expected = [
      {
        id: 'oidc:listed',
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        userId: user.id,
        provider: 'OIDC',
        username: 'listed.name',
        oauthId: 'listed',
      },
    ];
    const bySession = await call('GET', '/api/auth/oauth', { cookie: user.cookie });
    expect(bySession.status).toBe(200);
    expect(bySession.body).toEqual(expected);
    expect(bySession.text).not.toMatch(/accessToken|refreshToken/);
    expect((await call('GET', '/api/auth/oauth', { token: user.token })).body).toEqual(expected);
    expect((await call('GET', '/api/auth/oauth', { cookie: (await signedInUser()).cookie })).body).toEqual(
      [],
    );
    expect((await call('GET', '/api/auth/oauth')).status).toBe(401);
  });

  test('DELETE {provider} as Zipline names it unlinks, by the session only, and answers what stays linked', async () => {
    const user = await linkedUser('unlinked');
    const byToken = await call('DELETE', '/api/auth/oauth', {
      token: user.token,
      json: { provider: 'OIDC' },
    });
    expect(byToken.status).toBe(403);
    expect(byToken.body.error).toBe(SESSION_REQUIRED);
    const unlinked = await call('DELETE', '/api/auth/oauth', {
      cookie: user.cookie,
      json: { provider: 'OIDC' },
    });
    expect(unlinked.status).toBe(200);
    expect(unlinked.body).toEqual([]);
    expect((await call('GET', '/api/user', { cookie: user.cookie })).body.user.oauthProviders).toEqual([]);
    // Not linked any more, an unknown provider, a bad body: 400.
    for (const json of [{ provider: 'oidc' }, { provider: 'MYSPACE' }, {}, { provider: 'oidc', extra: 1 }]) {
      expect((await call('DELETE', '/api/auth/oauth', { cookie: user.cookie, json })).status).toBe(400);
    }
  });

  test("DELETE never removes the account's last way to sign in (the rule of DELETE /api/user/oauth, which stays)", async () => {
    const signedUp = await providerSignIn(provider, { sub: 'last-way', username: 'last.way' });
    const cookie = sessionOf(signedUp);
    const before = await tableSnapshot();
    const refused = await call('DELETE', '/api/auth/oauth', { cookie, json: { provider: 'oidc' } });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ error: LAST_SIGN_IN_METHOD, statusCode: 400 });
    expect(changedKeys(before, await tableSnapshot())).toEqual([]);
    // The older route answers the same rule, with its own shape ({user}).
    const alias = await call('DELETE', '/api/user/oauth', { cookie, json: { provider: 'OIDC' } });
    expect(alias.status).toBe(400);
    expect(alias.body.error).toBe(LAST_SIGN_IN_METHOD);
  });
});

describe('GET /api/server/public', () => {
  test("answers without authentication what a client needs before signing in, in Zipline's shape", async () => {
    const response = await call('GET', '/api/server/public');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      oauth: { bypassLocalLogin: false, loginOnly: false },
      oauthEnabled: { oidc: true, github: false, discord: false, google: false },
      signInProviders: [{ id: 'oidc', name: 'Test ID' }],
      website: { title: 'File service', loginText: '' },
      features: { oauthRegistration: true, userRegistration: false, invites: true },
      domains: [],
      mfa: { passkeys: true },
      files: {
        maxFileSize: '5tb',
        maxFileBytes: 5 * 1024 ** 4,
        defaultFormat: 'random',
        defaultExpiration: null,
        disabledExtensions: [],
      },
      chunks: { enabled: true, max: '3mb', size: '3mb' },
      firstSetup: expect.any(Boolean),
    });
  });

  test('a chunk of the advertised size is taken by the chunked upload', async () => {
    const { chunks } = (await call('GET', '/api/server/public')).body as { chunks: { size: string } };
    const size = Number.parseInt(chunks.size, 10) * 1024 * 1024;
    const owner = await signedInUser();
    const answer = await sendChunk(owner, { start: 0, bytes: randomBytes(size), total: 2 * size });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ files: [], partialSuccess: true });
  });
});
