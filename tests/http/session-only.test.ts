import { SESSION_REQUIRED } from '#shared/auth/authenticate';
import { register } from '../support/authenticator.ts';
import { type CallOptions, call, cookieValue, uniqueName } from '../support/client.ts';
import { type OidcProvider, providerSignIn, startOidcProvider } from '../support/oidc.ts';
import { changedKeys, tableSnapshot } from '../support/snapshot.ts';
import { enrolledUser } from '../support/totp.ts';
import { codeAt, stepNow } from '../support/totp-codes.ts';
import { PASSWORD, signedInUser } from '../support/users.ts';

/**
 * Issue 29: whatever adds or removes a way to sign in, or changes what signing in needs, refuses an
 * API token (kept in uploader configs) with 403 SESSION_REQUIRED, and writes nothing. Each route is
 * tried with a request its owner's session cookie gets through with, so the refusal is the token's.
 */
let provider: OidcProvider;

beforeAll(async () => {
  provider = await startOidcProvider();
  Object.assign(process.env, provider.env({ OAUTH_SIGNUP: 'true' }), {
    PASSKEY_ORIGIN: 'http://localhost:3000',
  });
});

afterAll(() => provider.stop());

type Caller = { cookie: string; token: string };

/** A request as its owner would make it, and the caller it is made for. */
interface Attempt {
  caller: Caller;
  method: string;
  url: string;
  options?: CallOptions;
}

/** A user whose only other sign-in is a provider account linked by sign-up, with a password set. */
async function linkedUser(): Promise<Caller> {
  const sub = uniqueName('idp');
  const signedUp = await providerSignIn(provider, { sub, username: sub });
  const cookie = cookieValue(signedUp.cookies.find((value) => value.startsWith('service_session=')));
  expect((await call('PATCH', '/api/user', { cookie, json: { password: PASSWORD } })).status).toBe(200);
  const token = (await call('GET', '/api/user/token', { cookie })).body.token as string;
  return { cookie, token };
}

/** A user with a passkey (registered with its session), and the passkey's id. */
async function userWithPasskey() {
  const me = await signedInUser();
  const options = await call('POST', '/api/user/passkeys/options', { cookie: me.cookie });
  const { response } = register(options.body);
  const added = await call('POST', '/api/user/passkeys', { cookie: me.cookie, json: { response } });
  expect(added.status).toBe(200);
  return { me, passkeyId: added.body.user.passkeys[0].id as string };
}

/** An administrator acting on a USER. */
async function adminOver(json: Record<string, unknown>): Promise<Attempt> {
  const [admin, target] = await Promise.all([signedInUser('SUPERADMIN'), signedInUser()]);
  return { caller: admin, method: 'PATCH', url: `/api/users/${target.id}`, options: { json } };
}

const SIGN_IN_CHANGES: [string, () => Promise<Attempt>][] = [
  [
    'GET /api/user/mfa/totp (the TOTP offer)',
    async () => {
      const me = await signedInUser();
      return { caller: me, method: 'GET', url: '/api/user/mfa/totp' };
    },
  ],
  [
    'POST /api/user/mfa/totp (turning TOTP on)',
    async () => {
      const me = await signedInUser();
      const { secret } = (await call('GET', '/api/user/mfa/totp', { cookie: me.cookie })).body;
      const json = { secret, code: codeAt(secret, stepNow()) };
      return { caller: me, method: 'POST', url: '/api/user/mfa/totp', options: { json } };
    },
  ],
  [
    'DELETE /api/user/mfa/totp (turning TOTP off)',
    async () => {
      const me = await enrolledUser();
      const json = { code: me.recoveryCodes[0] };
      return { caller: me, method: 'DELETE', url: '/api/user/mfa/totp', options: { json } };
    },
  ],
  [
    'POST /api/auth/oauth/{provider} (starting a link)',
    async () => {
      const me = await signedInUser();
      return { caller: me, method: 'POST', url: '/api/auth/oauth/oidc' };
    },
  ],
  [
    'DELETE /api/user/oauth (unlinking a provider)',
    async () => {
      const caller = await linkedUser();
      return { caller, method: 'DELETE', url: '/api/user/oauth', options: { json: { provider: 'oidc' } } };
    },
  ],
  [
    "DELETE /api/auth/oauth (unlinking a provider, Zipline's route)",
    async () => {
      const caller = await linkedUser();
      return { caller, method: 'DELETE', url: '/api/auth/oauth', options: { json: { provider: 'OIDC' } } };
    },
  ],
  [
    'POST /api/user/passkeys/options (starting to add a passkey)',
    async () => {
      const me = await signedInUser();
      return { caller: me, method: 'POST', url: '/api/user/passkeys/options' };
    },
  ],
  [
    'POST /api/user/passkeys (adding a passkey)',
    async () => {
      const me = await signedInUser();
      const options = await call('POST', '/api/user/passkeys/options', { cookie: me.cookie });
      const json = { response: register(options.body).response };
      return { caller: me, method: 'POST', url: '/api/user/passkeys', options: { json } };
    },
  ],
  [
    'PATCH /api/user/passkeys/{id} (renaming a passkey)',
    async () => {
      const { me, passkeyId } = await userWithPasskey();
      const options = { json: { name: 'Renamed' } };
      return { caller: me, method: 'PATCH', url: `/api/user/passkeys/${passkeyId}`, options };
    },
  ],
  [
    'DELETE /api/user/passkeys/{id} (deleting a passkey)',
    async () => {
      const { me, passkeyId } = await userWithPasskey();
      return { caller: me, method: 'DELETE', url: `/api/user/passkeys/${passkeyId}` };
    },
  ],
  [
    'PATCH /api/user {password} (with the current password)',
    async () => {
      const me = await signedInUser();
      const json = { password: 'a password of my own', currentPassword: PASSWORD };
      return { caller: me, method: 'PATCH', url: '/api/user', options: { json } };
    },
  ],
  [
    'PATCH /api/user {username} (the name a password login types)',
    async () => {
      const me = await signedInUser();
      return {
        caller: me,
        method: 'PATCH',
        url: '/api/user',
        options: { json: { username: uniqueName('renamed') } },
      };
    },
  ],
  [
    'PATCH /api/users/{id} {password} (an administrator’s reset)',
    () => adminOver({ password: 'reset by admin' }),
  ],
  [
    'PATCH /api/users/{id} {totpSecret: null} (TOTP off by an administrator)',
    () => adminOver({ totpSecret: null }),
  ],
  ['PATCH /api/users/{id} {username}', () => adminOver({ username: uniqueName('renamed') })],
  ['PATCH /api/users/{id} {role: ADMIN} (a promotion)', () => adminOver({ role: 'ADMIN' })],
  [
    'POST /api/users {role: ADMIN} (an administrator who could reset the passwords of others)',
    async () => {
      const admin = await signedInUser('SUPERADMIN');
      const json = { username: uniqueName('admin'), password: PASSWORD, role: 'ADMIN' };
      return { caller: admin, method: 'POST', url: '/api/users', options: { json } };
    },
  ],
];

describe('a change to how an account signs in needs a session', () => {
  test.each(SIGN_IN_CHANGES)(
    '%s: a token is refused with 403 and nothing changes; the session gets through',
    async (_, prepare) => {
      const { caller, method, url, options } = await prepare();
      const before = await tableSnapshot();
      const byToken = await call(method, url, { ...options, token: caller.token });
      expect(byToken.body).toEqual({ error: SESSION_REQUIRED, statusCode: 403 });
      expect(changedKeys(before, await tableSnapshot())).toEqual([]);
      const bySession = await call(method, url, { ...options, cookie: caller.cookie });
      expect(bySession.status).toBe(200);
    },
    60_000,
  );
});

describe('what does not change how one signs in still works with the token', () => {
  test.each([
    ['PATCH /api/user {view}', { view: { enabled: true } }],
    ['PATCH /api/user {avatar: null}', { avatar: null }],
  ])('%s', async (_, json) => {
    const me = await signedInUser();
    expect((await call('PATCH', '/api/user', { token: me.token, json })).status).toBe(200);
  });

  test('POST /api/users of a USER by an administrator’s token', async () => {
    const admin = await signedInUser('SUPERADMIN');
    const json = { username: uniqueName('uploader'), password: PASSWORD };
    expect((await call('POST', '/api/users', { token: admin.token, json })).status).toBe(200);
  });

  test('PATCH /api/users/{id} {role: USER, quota} by an administrator’s token', async () => {
    const { caller, url } = await adminOver({});
    const json = { role: 'USER', quota: { filesQuota: 'BY_FILES', maxFiles: 5 } };
    expect((await call('PATCH', url, { token: caller.token, json })).status).toBe(200);
  });
});
