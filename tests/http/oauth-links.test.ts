import { SESSION_REQUIRED } from '#shared/auth/authenticate';
import { oauthIdentityKey } from '#shared/db/keys/users';
import { LINK_STARTS_IN_SETTINGS } from '#shared/oauth/start';
import { LAST_SIGN_IN_METHOD } from '#shared/users/sign-in/sign-in-methods';
import { type CallOptions, call, cookieValue } from '../support/client.ts';
import {
  type OidcProvider,
  type ProviderSignInOptions,
  providerSignIn,
  startOidcProvider,
} from '../support/oidc.ts';
import { changedKeys, tableSnapshot } from '../support/snapshot.ts';
import { signedInUser } from '../support/users.ts';

/**
 * Linking and unlinking through the route table's handlers in this process (the full redirect flow
 * through `npm start` is oauth-oidc.test.ts), against the same real OIDC provider process, with
 * sign-up by provider allowed and GitHub and Discord configured beside it.
 */
let provider: OidcProvider;

beforeAll(async () => {
  provider = await startOidcProvider();
  Object.assign(process.env, provider.env({ OAUTH_SIGNUP: 'true' }), {
    OAUTH_GITHUB_CLIENT_ID: 'github-client',
    OAUTH_GITHUB_CLIENT_SECRET: 'github-secret',
    OAUTH_DISCORD_CLIENT_ID: 'discord-client',
    OAUTH_DISCORD_CLIENT_SECRET: 'discord-secret',
  });
});

afterAll(() => provider.stop());

const signInWithProvider = (
  account: { sub: string; username: string },
  options: ProviderSignInOptions = {},
) => providerSignIn(provider, account, options);

const unlink = (caller: CallOptions, json: unknown) => call('DELETE', '/api/user/oauth', { ...caller, json });

describe('unlink', () => {
  test('is refused while the provider is the only way to sign in, and allowed once a password is set', async () => {
    const signedUp = await signInWithProvider({ sub: 'only-way', username: 'only-way' });
    expect(signedUp.headers.location).toBe('/');
    const cookie = cookieValue(signedUp.cookies.find((value) => value.startsWith('service_session=')));
    const before = await tableSnapshot();
    const refused = await unlink({ cookie }, { provider: 'oidc' });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ error: LAST_SIGN_IN_METHOD, statusCode: 400 });
    expect(changedKeys(before, await tableSnapshot())).toEqual([]);

    expect(
      (await call('PATCH', '/api/user', { cookie, json: { password: 'now with a password' } })).status,
    ).toBe(200);
    const unlinked = await unlink({ cookie }, { provider: 'oidc' });
    expect(unlinked.status).toBe(200);
    expect(unlinked.body.user.oauthProviders).toEqual([]);
    // The provider account is free: its claim went in the same transaction.
    const after = await tableSnapshot();
    expect([...after.keys()].filter((key) => key.startsWith('OAUTHID#'))).not.toContain(
      `${oauthIdentityKey('oidc', 'only-way').pk}|OAUTHID`,
    );
    const other = await signedInUser();
    const linked = await signInWithProvider(
      { sub: 'only-way', username: 'only-way' },
      {
        cookie: other.cookie,
        link: true,
      },
    );
    expect(linked.headers.location).toBe('/settings?linked=oidc');
  });

  test('a provider that is not linked, an unknown provider or a bad body: 400, nothing changes', async () => {
    const user = await signedInUser();
    const before = await tableSnapshot();
    for (const [body, error] of [
      [{ provider: 'oidc' }, 'oidc is not linked to this account'],
      [{ provider: 'myspace' }, 'provider: provider must be one of oidc, github, discord, google'],
      [{}, 'provider is required'],
      [{ provider: 'oidc', extra: true }, 'extra: unknown property'],
    ] as const) {
      const response = await unlink({ cookie: user.cookie }, body);
      expect({ status: response.status, error: response.body.error }).toEqual({ status: 400, error });
    }
    expect((await call('DELETE', '/api/user/oauth', { json: { provider: 'oidc' } })).status).toBe(401);
    expect(changedKeys(before, await tableSnapshot())).toEqual([]);
  });

  test('with a password the last provider unlinks; never by the token alone', async () => {
    const user = await signedInUser();
    const linked = await signInWithProvider(
      { sub: 'token-unlink', username: 'x' },
      { cookie: user.cookie, link: true },
    );
    expect(linked.headers.location).toBe('/settings?linked=oidc');
    const byToken = await unlink({ token: user.token }, { provider: 'oidc' });
    expect(byToken.body).toEqual({ error: SESSION_REQUIRED, statusCode: 403 });
    const unlinked = await unlink({ cookie: user.cookie }, { provider: 'oidc' });
    expect(unlinked.status).toBe(200);
    expect(unlinked.body.user.oauthProviders).toEqual([]);
  });
});

test('one account per provider and user: a second one of the same provider is refused until the first is unlinked', async () => {
  const user = await signedInUser();
  const first = await signInWithProvider(
    { sub: 'first-of-two', username: 'a' },
    { cookie: user.cookie, link: true },
  );
  expect(first.headers.location).toBe('/settings?linked=oidc');
  const before = await tableSnapshot();
  const second = await signInWithProvider(
    { sub: 'second-of-two', username: 'b' },
    { cookie: user.cookie, link: true },
  );
  expect(new URL(second.headers.location as string, 'https://x').searchParams.get('error')).toBe(
    'an account of oidc is already linked: unlink it first',
  );
  expect(changedKeys(before, await tableSnapshot()).filter((key) => !key.startsWith('OAUTHFLOW#'))).toEqual(
    [],
  );
});

test("deleting a user frees its provider accounts' claims with it", async () => {
  const admin = await signedInUser('SUPERADMIN');
  const signedUp = await signInWithProvider({ sub: 'to-be-deleted', username: 'leaving' });
  const cookie = cookieValue(signedUp.cookies.find((value) => value.startsWith('service_session=')));
  const { id } = (await call('GET', '/api/user', { cookie })).body.user;
  const claim = `${oauthIdentityKey('oidc', 'to-be-deleted').pk}|OAUTHID`;
  expect((await tableSnapshot()).has(claim)).toBe(true);
  expect((await call('DELETE', `/api/users/${id}`, { token: admin.token })).status).toBe(200);
  expect((await tableSnapshot()).has(claim)).toBe(false);
  // The same provider account signs up afresh.
  const again = await signInWithProvider({ sub: 'to-be-deleted', username: 'leaving' });
  expect(again.headers.location).toBe('/');
});

describe('GitHub and Discord', () => {
  test.each([
    ['github', 'https://github.com/login/oauth/authorize', 'github-client', 'read:user'],
    ['discord', 'https://discord.com/oauth2/authorize', 'discord-client', 'identify'],
  ])('%s: the start asks for the code with PKCE (S256) and state', async (id, endpoint, clientId, scope) => {
    const start = await call('GET', `/api/auth/oauth/${id}`, { protocol: 'https' });
    expect(start.status).toBe(302);
    const url = new URL(start.headers.location as string);
    expect(url.origin + url.pathname).toBe(endpoint);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: `https://localhost/api/auth/oauth/${id}`,
      state: expect.stringMatching(/^[\w-]{43}$/),
      scope,
      code_challenge: expect.stringMatching(/^[\w-]{43}$/),
      code_challenge_method: 'S256',
    });
    expect(start.cookies).toEqual([expect.stringMatching(/^service_oauth=Fe26\.2\*.*; Secure$/)]);
  });

  test("a callback with another provider's flow, or a forged state, is refused before any request", async () => {
    const start = await call('GET', '/api/auth/oauth/github');
    const cookie = cookieValue(start.cookies[0]);
    const state = new URL(start.headers.location as string).searchParams.get('state');
    const crossed = await call('GET', `/api/auth/oauth/discord/callback?code=c&state=${state}`, { cookie });
    expect(crossed.status).toBe(302);
    expect(crossed.headers.location).toMatch(/^\/login\?error=the%20sign-in%20expired/);
    const forged = await call('GET', '/api/auth/oauth/github/callback?code=c&state=forged', { cookie });
    expect(forged.headers.location).toMatch(/^\/login\?error=the%20sign-in%20could%20not%20be%20verified/);
  });
});

test('the provider list (GET /api/server/public): every configured provider, in a fixed order', async () => {
  const response = await call('GET', '/api/server/public');
  expect(response.body.signInProviders).toEqual([
    { id: 'oidc', name: 'Test ID' },
    { id: 'github', name: 'GitHub' },
    { id: 'discord', name: 'Discord' },
  ]);
  expect(response.body.oauthEnabled).toEqual({ oidc: true, github: true, discord: true, google: false });
});

test('bad input to the sign-in routes is a 4xx, never a 5xx', async () => {
  expect((await call('GET', '/api/auth/oauth/google')).status).toBe(404);
  expect((await call('GET', '/api/auth/oauth/nope/callback?code=x&state=y')).status).toBe(404);
  expect((await call('GET', '/api/auth/oauth/oidc?link=maybe')).status).toBe(400);
  expect((await call('GET', `/api/auth/oauth/oidc/callback?state=${'s'.repeat(300)}`)).status).toBe(400);
  // A link no longer starts with a GET: back to settings, no flow started.
  const link = await call('GET', '/api/auth/oauth/oidc?link=true');
  expect(link.headers.location).toBe(`/settings?error=${encodeURIComponent(LINK_STARTS_IN_SETTINGS)}`);
  expect(link.cookies).toEqual([]);
  // Its POST without a session: 401; for an unknown provider: 404.
  expect((await call('POST', '/api/auth/oauth/oidc')).status).toBe(401);
  const user = await signedInUser();
  expect((await call('POST', '/api/auth/oauth/google', { cookie: user.cookie })).status).toBe(404);
  const garbage = await call('GET', '/api/auth/oauth/oidc/callback?code=x&state=y', {
    cookie: 'service_oauth=Fe26.2**garbage',
  });
  expect(garbage.status).toBe(302);
  expect(garbage.headers.location).toMatch(/^\/login\?error=/);
});
