import { assert, register } from '../support/authenticator.ts';
import { call, cookieValue } from '../support/client.ts';
import { enrolledUser, freshAddress } from '../support/totp.ts';
import { signedInUser } from '../support/users.ts';

/**
 * Every sign-in kind keeps its client for `GET /api/user/sessions` (issue 36): the password login's
 * TOTP step (a recovery code) and a passkey here, the password in sessions.test.ts; a provider's
 * sign-in passes through the same `openSession` (shared/oauth/sign-in.ts).
 */
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

beforeAll(() => {
  process.env.PASSKEY_ORIGIN = 'http://localhost:3000';
});
afterAll(() => {
  delete process.env.PASSKEY_ORIGIN;
});

const currentSession = async (cookie: string) =>
  (await call('GET', '/api/user/sessions', { cookie })).body.current;

test('the TOTP step of a login keeps its client', async () => {
  const me = await enrolledUser();
  const login = await call('POST', '/api/auth/login', {
    json: { username: me.username, password: me.password, code: me.recoveryCodes[0] },
    headers: { 'user-agent': SAFARI_IPHONE },
    sourceIp: freshAddress(),
  });
  expect(login.status).toBe(200);
  expect(await currentSession(cookieValue(login.cookies[0]))).toMatchObject({
    client: 'Safari 17',
    device: 'iOS 17 · mobile',
    ua: SAFARI_IPHONE,
  });
});

test('a passkey sign-in keeps its client', async () => {
  const me = await signedInUser();
  const options = await call('POST', '/api/user/passkeys/options', { cookie: me.cookie });
  const { credential, response } = register(options.body);
  expect((await call('POST', '/api/user/passkeys', { cookie: me.cookie, json: { response } })).status).toBe(
    200,
  );
  const challenge = await call('POST', '/api/auth/passkey/options');
  const signedIn = await call('POST', '/api/auth/passkey', {
    json: assert(credential, challenge.body),
    headers: { 'user-agent': SAFARI_IPHONE },
  });
  expect(signedIn.status).toBe(200);
  expect(await currentSession(cookieValue(signedIn.cookies[0]))).toMatchObject({
    client: 'Safari 17',
    ua: SAFARI_IPHONE,
  });
});
