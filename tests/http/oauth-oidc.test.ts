import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { SESSION_REQUIRED } from '#shared/auth/authenticate';
import { PROOF_REQUIRED } from '#shared/auth/current-password';
import { LINK_OF_ANOTHER_SESSION } from '#shared/oauth/link';
import { LINK_STARTS_IN_SETTINGS } from '#shared/oauth/start';
import { localClient } from '../../infra/local/dynamodb.ts';
import { BrowserSession, type OidcProvider, startOidcProvider } from '../support/oidc.ts';
import { type Runner, startRunner, stopRunner } from '../support/runner.ts';
import { changedKeys, tableSnapshot } from '../support/snapshot.ts';
import { acceptedAtOneStep, codeAt } from '../support/totp-codes.ts';

/**
 * OpenID Connect sign-in end to end: `npm start` for real, configured by its environment, against a
 * real OIDC provider process (discovery, JWKS, RS256-signed ID tokens, PKCE), driven hop by hop as a
 * browser follows the redirects. Every refused sign-in is shown on the dashboard's page with
 * `error=...`, sets no session and changes nothing in the table.
 */
const ADMIN = { username: 'administrator', password: 'an admin passphrase' };
const RUNNER_TABLE = 'file-service';

let provider: OidcProvider;
const dataDirs: string[] = [];
const runners: Runner[] = [];

beforeAll(async () => {
  provider = await startOidcProvider();
});

afterAll(async () => {
  for (const runner of runners) await stopRunner(runner);
  await provider.stop();
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

async function runnerWith(env: Record<string, string>) {
  const dataDir = mkdtempSync(join(tmpdir(), 'file-service-oauth-'));
  dataDirs.push(dataDir);
  const runner = await startRunner(dataDir, {
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    POWERTOOLS_LOG_LEVEL: 'WARN',
    ...env,
  });
  runners.push(runner);
  const table = DynamoDBDocumentClient.from(localClient(runner.dynamoEndpoint), {
    marshallOptions: { removeUndefinedValues: true },
  });
  return { runner, snapshot: () => tableSnapshot(table, RUNNER_TABLE) };
}

async function passwordSession(origin: string, username: string, password: string) {
  const browser = new BrowserSession(origin);
  const login = await browser.request('/api/auth/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  expect(login.status).toBe(200);
  return browser;
}

async function currentUser(browser: BrowserSession) {
  const response = await browser.request('/api/user');
  return { status: response.status, body: (await response.json()) as { user: Record<string, unknown> } };
}

/** The error a sign-in ended with, as the dashboard receives it. */
const errorOf = (location: string | undefined) =>
  new URL(location ?? '/', 'http://x').searchParams.get('error');

describe('sign-up by provider not allowed (the default)', () => {
  let origin: string;
  let snapshot: () => ReturnType<typeof tableSnapshot>;

  beforeAll(async () => {
    const started = await runnerWith(provider.env());
    origin = started.runner.url;
    snapshot = started.snapshot;
  }, 120_000);

  test('the dashboard learns the configured providers', async () => {
    const response = await fetch(`${origin}/api/server/public`);
    expect(response.status).toBe(200);
    const config = (await response.json()) as { signInProviders: unknown };
    expect(config.signInProviders).toEqual([{ id: 'oidc', name: 'Test ID' }]);
    // Providers this deployment does not configure do not exist.
    expect((await fetch(`${origin}/api/auth/oauth/github`, { redirect: 'manual' })).status).toBe(404);
  });

  test('an account nobody linked is refused and creates nothing', async () => {
    await provider.signInAs({ sub: 'stranger-1', username: 'stranger' });
    const before = await snapshot();
    const browser = new BrowserSession(origin);
    const { hops, location } = await browser.navigate('/api/auth/oauth/oidc');
    // Start → the provider's authorization endpoint → the callback (the start's own path, as on
    // Zipline) → the sign-in page.
    expect(hops.map((hop) => new URL(hop).pathname)).toEqual([
      '/api/auth/oauth/oidc',
      '/authorize',
      '/api/auth/oauth/oidc',
    ]);
    expect(location).toMatch(/^\/login\?error=/);
    expect(errorOf(location)).toMatch(/no account is linked to this Test ID account/);
    expect(browser.cookies.has('service_session')).toBe(false);
    expect(browser.cookies.has('service_oauth')).toBe(false);
    expect(changedKeys(before, await snapshot())).toEqual([]);
  });

  test('the start sends the browser to the provider with PKCE, state and nonce, and seals them in a short-lived cookie', async () => {
    const browser = new BrowserSession(origin);
    const start = await browser.request('/api/auth/oauth/oidc');
    expect(start.status).toBe(302);
    const authorize = new URL(start.headers.get('location') as string);
    expect(authorize.origin + authorize.pathname).toBe(`${provider.issuer}/authorize`);
    expect(Object.fromEntries(authorize.searchParams)).toEqual({
      client_id: provider.clientId,
      redirect_uri: `${origin}/api/auth/oauth/oidc`,
      response_type: 'code',
      scope: 'openid profile email',
      state: expect.stringMatching(/^[\w-]{43}$/),
      nonce: expect.stringMatching(/^[\w-]{43}$/),
      code_challenge: expect.stringMatching(/^[\w-]{43}$/),
      code_challenge_method: 'S256',
    });
    const [flowCookie] = start.headers.getSetCookie();
    expect(flowCookie).toMatch(
      /^service_oauth=Fe26\.2\*\S+; Max-Age=600; Path=\/api\/auth\/oauth; Expires=[^;]+; HttpOnly; SameSite=Lax$/,
    );
    // The sealed cookie carries none of the secrets in the clear.
    for (const name of ['state', 'nonce'] as const)
      expect(flowCookie).not.toContain(authorize.searchParams.get(name) as string);
  });

  describe('an account linked from settings', () => {
    beforeAll(async () => {
      await provider.signInAs({ sub: 'admin-at-idp', username: 'admin.idp' });
      const admin = await passwordSession(origin, ADMIN.username, ADMIN.password);
      const { location } = await admin.link('oidc');
      expect(location).toBe('/settings?linked=oidc');
    });

    test('is listed in the user, with no token', async () => {
      const admin = await passwordSession(origin, ADMIN.username, ADMIN.password);
      const { body } = await currentUser(admin);
      expect(body.user.oauthProviders).toEqual([
        {
          provider: 'oidc',
          username: 'admin.idp',
          providerId: 'admin-at-idp',
          createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        },
      ]);
    });

    test('signs in with the same session cookie as a password login', async () => {
      const browser = new BrowserSession(origin);
      const { location, last } = await browser.navigate('/api/auth/oauth/oidc');
      expect(location).toBe('/');
      const setCookies = last.headers.getSetCookie();
      expect(setCookies).toEqual([
        expect.stringMatching(/^service_oauth=; Max-Age=0; Path=\/api\/auth\/oauth;/),
        expect.stringMatching(
          /^service_session=Fe26\.2\*\S+; Max-Age=604800; Path=\/; Expires=[^;]+; HttpOnly; SameSite=Lax$/,
        ),
      ]);
      const { status, body } = await currentUser(browser);
      expect(status).toBe(200);
      expect(body.user.username).toBe(ADMIN.username);
    });

    test('cannot be linked to a second account', async () => {
      const admin = await passwordSession(origin, ADMIN.username, ADMIN.password);
      const created = await admin.request('/api/users', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'second', password: 'second passphrase' }),
      });
      expect(created.status).toBe(200);
      const second = await passwordSession(origin, 'second', 'second passphrase');
      const before = await snapshot();
      const { location } = await second.link('oidc');
      expect(location).toMatch(/^\/settings\?error=/);
      expect(errorOf(location)).toBe('this provider account is already linked to another account');
      // Only the record that this sign-in's state was used.
      expect(changedKeys(before, await snapshot()).filter((key) => !key.startsWith('OAUTHFLOW#'))).toEqual(
        [],
      );
      expect((await currentUser(second)).body.user.oauthProviders).toEqual([]);
    });
  });

  describe('refused sign-ins change nothing', () => {
    /** Starts a sign-in and returns the provider's redirect back to the callback, not yet followed. */
    async function untilCallback(browser: BrowserSession) {
      const start = await browser.request('/api/auth/oauth/oidc');
      const authorize = await fetch(start.headers.get('location') as string, { redirect: 'manual' });
      return new URL(authorize.headers.get('location') as string);
    }

    async function expectRefused(run: () => Promise<string | undefined>, error: RegExp) {
      const before = await snapshot();
      const location = await run();
      expect(location).toMatch(/^\/login\?error=/);
      expect(errorOf(location)).toMatch(error);
      expect(changedKeys(before, await snapshot())).toEqual([]);
    }

    beforeEach(async () => {
      await provider.signInAs({ sub: 'admin-at-idp', username: 'admin.idp' });
    });

    test('a forged state', async () => {
      const browser = new BrowserSession(origin);
      await expectRefused(async () => {
        const start = await browser.request('/api/auth/oauth/oidc');
        const authorize = new URL(start.headers.get('location') as string);
        authorize.searchParams.set('state', 'forged-by-an-attacker');
        return (await browser.navigate(authorize.href)).location;
      }, /could not be verified/);
      expect(browser.cookies.has('service_session')).toBe(false);
    });

    test('a callback without the flow cookie (another browser) or without a code', async () => {
      const callback = await untilCallback(new BrowserSession(origin));
      await expectRefused(
        async () => (await new BrowserSession(origin).navigate(callback.href)).location,
        /expired or was started in another browser/,
      );
      const browser = new BrowserSession(origin);
      const withoutCode = await untilCallback(browser);
      withoutCode.searchParams.delete('code');
      await expectRefused(
        async () => (await browser.navigate(withoutCode.href)).location,
        /could not be verified/,
      );
    });

    test('a replayed code', async () => {
      const browser = new BrowserSession(origin);
      const callback = await untilCallback(browser);
      const flow = browser.cookies.get('service_oauth') as string;
      expect((await browser.navigate(callback.href)).location).toBe('/');
      // The same callback again, with the flow cookie the attacker kept.
      const replay = new BrowserSession(origin);
      replay.cookies.set('service_oauth', flow);
      await expectRefused(async () => (await replay.navigate(callback.href)).location, /did not confirm/);
      expect(replay.cookies.has('service_session')).toBe(false);
    });

    test.each([
      ['a wrong nonce', { nonce: 'another-nonce' }],
      ['a wrong issuer', { iss: 'http://127.0.0.1:1' }],
      ['a wrong audience', { aud: 'another-client' }],
    ])('an ID token with %s', async (_, claims) => {
      await provider.tamperNextIdToken(claims);
      const browser = new BrowserSession(origin);
      await expectRefused(
        async () => (await browser.navigate('/api/auth/oauth/oidc')).location,
        /did not confirm/,
      );
      expect(browser.cookies.has('service_session')).toBe(false);
    });

    test('the provider says no', async () => {
      const browser = new BrowserSession(origin);
      const callback = await untilCallback(browser);
      const denied = new URL(callback.pathname, origin);
      denied.searchParams.set('error', 'access_denied');
      denied.searchParams.set('state', callback.searchParams.get('state') as string);
      await expectRefused(
        async () => (await browser.navigate(denied.href)).location,
        /^Test ID did not sign you in \(access_denied\)$/,
      );
    });
  });
});

describe('sign-up by provider allowed', () => {
  let origin: string;

  beforeAll(async () => {
    origin = (await runnerWith(provider.env({ OAUTH_SIGNUP: 'true' }))).runner.url;
  }, 120_000);

  test('an unlinked account becomes a USER named after it, with no password, and signs in to it again', async () => {
    await provider.signInAs({ sub: 'newcomer-1', username: 'newcomer' });
    const browser = new BrowserSession(origin);
    expect((await browser.navigate('/api/auth/oauth/oidc')).location).toBe('/');
    const { body } = await currentUser(browser);
    expect(body.user).toMatchObject({
      username: 'newcomer',
      role: 'USER',
      oauthProviders: [{ provider: 'oidc', username: 'newcomer', providerId: 'newcomer-1' }],
    });
    // It has no password: no password signs in to it.
    const login = await fetch(`${origin}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'newcomer', password: '' }),
    });
    expect(login.status).toBe(401);
    const again = new BrowserSession(origin);
    expect((await again.navigate('/api/auth/oauth/oidc')).location).toBe('/');
    expect((await currentUser(again)).body.user.id).toBe(body.user.id);
  });

  test('a taken name gets the provider as a suffix', async () => {
    await provider.signInAs({ sub: 'admin-lookalike', username: ADMIN.username });
    const browser = new BrowserSession(origin);
    expect((await browser.navigate('/api/auth/oauth/oidc')).location).toBe('/');
    expect((await currentUser(browser)).body.user.username).toBe(`${ADMIN.username}-oidc`);
  });
});

describe('issue 29: an API token alone never becomes the account; a provider sign-in asks for the TOTP code', () => {
  let origin: string;
  let snapshot: () => ReturnType<typeof tableSnapshot>;
  const VICTIM = { username: 'victim', password: 'the victim passphrase' };
  let recoveryCodes: string[];
  let token: string;

  /** The victim, signed in with the password and the code, in a browser of their own. */
  async function victimSession() {
    const browser = new BrowserSession(origin);
    const asked = await browser.send('/api/auth/login', 'POST', VICTIM);
    expect(await asked.json()).toEqual({ totp: true });
    const login = await browser.send('/api/auth/login', 'POST', { ...VICTIM, code: recoveryCodes.pop() });
    expect(login.status).toBe(200);
    return browser;
  }

  beforeAll(async () => {
    const started = await runnerWith(provider.env());
    origin = started.runner.url;
    snapshot = started.snapshot;
    const admin = await passwordSession(origin, ADMIN.username, ADMIN.password);
    expect((await admin.send('/api/users', 'POST', VICTIM)).status).toBe(200);
    const victim = await passwordSession(origin, VICTIM.username, VICTIM.password);
    const { secret } = (await (await victim.request('/api/user/mfa/totp')).json()) as { secret: string };
    const enrolled = await acceptedAtOneStep(
      (step) => victim.send('/api/user/mfa/totp', 'POST', { secret, code: codeAt(secret, step - 1) }),
      (answer) => answer.status === 200,
    );
    expect(enrolled.status).toBe(200);
    recoveryCodes = ((await enrolled.json()) as { recoveryCodes: string[] }).recoveryCodes;
    token = ((await (await victim.request('/api/user/token')).json()) as { token: string }).token;
  }, 120_000);

  test("the issue's attack: with the token only, no link, no provider sign-in, no password change", async () => {
    const before = await snapshot();
    const attacker = new BrowserSession(origin);
    const byToken = { authorization: token };
    // The link's start is a POST that needs the session.
    const linkStart = await attacker.send('/api/auth/oauth/oidc', 'POST', undefined, byToken);
    expect(linkStart.status).toBe(403);
    expect(await linkStart.json()).toEqual({ error: SESSION_REQUIRED, statusCode: 403 });
    expect(attacker.cookies.size).toBe(0);
    // The old GET link starts nothing.
    const oldLink = await attacker.request('/api/auth/oauth/oidc?link=true', { headers: byToken });
    expect(oldLink.headers.get('location')).toBe(
      `/settings?error=${encodeURIComponent(LINK_STARTS_IN_SETTINGS)}`,
    );
    expect(attacker.cookies.size).toBe(0);
    // So the attacker's provider account signs in to nothing.
    await provider.signInAs({ sub: 'attacker-at-idp', username: 'attacker' });
    expect(errorOf((await attacker.navigate('/api/auth/oauth/oidc')).location)).toMatch(
      /no account is linked/,
    );
    // The password, TOTP, the name: all refused to the token.
    for (const [method, path, body] of [
      ['PATCH', '/api/user', { password: 'taken over for good' }],
      ['PATCH', '/api/user', { username: 'taken-over' }],
      ['DELETE', '/api/user/mfa/totp', { code: '000000' }],
      ['GET', '/api/user/mfa/totp', undefined],
    ] as const) {
      const refused = await attacker.send(path, method, body, byToken);
      expect([path, refused.status]).toEqual([path, 403]);
    }
    expect(changedKeys(before, await snapshot())).toEqual([]);
    // The owner's password still signs in (the code is asked for).
    const login = await new BrowserSession(origin).send('/api/auth/login', 'POST', VICTIM);
    expect(await login.json()).toEqual({ totp: true });
  });

  test('a link finishes only in the session that started it', async () => {
    const started = await victimSession();
    const other = await victimSession();
    await provider.signInAs({ sub: 'victim-crossed', username: 'victim' });
    // The flow cookie carried to another session of the same user, and to the token.
    for (const [browser, headers] of [
      [other, {}],
      [new BrowserSession(origin), { authorization: token }],
    ] as const) {
      const start = await started.send('/api/auth/oauth/oidc', 'POST');
      const { url } = (await start.json()) as { url: string };
      const callback = (await fetch(url, { redirect: 'manual' })).headers.get('location') as string;
      browser.cookies.set('service_oauth', started.cookies.get('service_oauth') as string);
      const before = await snapshot();
      const refused = await browser.request(callback, { headers });
      expect(errorOf(refused.headers.get('location') ?? undefined)).toBe(LINK_OF_ANOTHER_SESSION);
      expect(changedKeys(before, await snapshot())).toEqual([]);
    }
  });

  test('with TOTP on, the provider gives no session until the code; a provider session needs a proof to change the password', async () => {
    const victim = await victimSession();
    await provider.signInAs({ sub: 'victim-at-idp', username: 'victim' });
    expect((await victim.link('oidc')).location).toBe('/settings?linked=oidc');

    const browser = new BrowserSession(origin);
    const { location } = await browser.navigate('/api/auth/oauth/oidc');
    expect(location).toBe('/login?totp=oidc');
    expect(browser.cookies.has('service_session')).toBe(false);
    expect(browser.cookies.has('service_pending')).toBe(true);
    expect((await currentUser(browser)).status).toBe(401);
    // A wrong code is refused as at login; another site's page cannot send one.
    const wrong = await browser.send('/api/auth/totp', 'POST', { code: '000000' });
    expect(wrong.status).toBe(401);
    const crossSite = await browser.send(
      '/api/auth/totp',
      'POST',
      { code: recoveryCodes.at(-1) },
      { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    );
    expect(crossSite.status).toBe(403);
    const code = await browser.send('/api/auth/totp', 'POST', { code: recoveryCodes.pop() });
    expect(code.status).toBe(200);
    expect(browser.cookies.has('service_pending')).toBe(false);
    expect((await currentUser(browser)).body.user.username).toBe(VICTIM.username);

    // This session came from the provider: the password changes only with the current one or a code.
    const bare = await browser.send('/api/user', 'PATCH', { password: 'changed by the session' });
    expect(await bare.json()).toEqual({ error: PROOF_REQUIRED, statusCode: 400 });
    const withCode = await browser.send('/api/user', 'PATCH', {
      password: 'changed with a code',
      code: recoveryCodes.pop(),
    });
    expect(withCode.status).toBe(200);
    VICTIM.password = 'changed with a code';
  });
});
