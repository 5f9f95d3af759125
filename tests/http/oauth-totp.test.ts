import { PROOF_REQUIRED } from '#shared/auth/current-password';
import { SIGN_IN_EXPIRED } from '#shared/auth/second-factor';
import { sealSession } from '#shared/auth/session';
import { INVALID_CODE } from '#shared/mfa/totp';
import { getUser } from '#shared/users/store';
import { call, cookieValue, uniqueName } from '../support/client.ts';
import { type OidcProvider, providerSignIn, startOidcProvider } from '../support/oidc.ts';
import { changedKeys, tableSnapshot } from '../support/snapshot.ts';
import { enrolledUser, freshAddress } from '../support/totp.ts';
import { PASSWORD } from '../support/users.ts';

/**
 * A provider sign-in of an account with TOTP on (issue 29), through the route table's handlers and
 * the real OIDC provider process: no session until the code, taken by `POST /api/auth/totp` as the
 * password login takes it; and a password change from a session the password did not make.
 */
let provider: OidcProvider;

beforeAll(async () => {
  provider = await startOidcProvider();
  Object.assign(process.env, provider.env());
});

afterAll(() => provider.stop());

/** A user with TOTP on and a provider account linked, and that account. */
async function enrolledAndLinked() {
  const me = await enrolledUser();
  const account = { sub: uniqueName('idp'), username: me.username };
  const linked = await providerSignIn(provider, account, { cookie: me.cookie, link: true });
  expect(linked.headers.location).toBe('/settings?linked=oidc');
  return { ...me, account };
}

/** The provider's part of a sign-in: where it sends the browser, and the pending sign-in's cookie. */
async function pendingSignIn(account: { sub: string; username: string }) {
  const answer = await providerSignIn(provider, account);
  const pending = answer.cookies.find((value) => value.startsWith('service_pending='));
  return { answer, cookie: pending && cookieValue(pending) };
}

const sendCode = (cookie: string | undefined, code: string, sourceIp = freshAddress()) =>
  call('POST', '/api/auth/totp', { json: { code }, sourceIp, ...(cookie ? { cookie } : {}) });

test('the provider alone opens no session: the code does, once', async () => {
  const me = await enrolledAndLinked();
  const { answer, cookie } = await pendingSignIn(me.account);
  expect(answer.headers.location).toBe('/login?totp=oidc');
  expect(answer.cookies.some((value) => value.startsWith('service_session='))).toBe(false);
  expect(answer.cookies).toContainEqual(
    expect.stringMatching(
      /^service_pending=Fe26\.2\*\S+; Max-Age=300; Path=\/api\/auth\/totp; .*HttpOnly; SameSite=Lax/,
    ),
  );
  const sessionsBefore = Object.keys((await getUser(me.id, { consistent: true }))?.sessions ?? {});

  const wrong = await sendCode(cookie, '000000');
  expect(wrong.body).toEqual({ error: INVALID_CODE, statusCode: 401 });
  const right = await sendCode(cookie, me.recoveryCodes[0] as string);
  expect(right.status).toBe(200);
  expect(right.body.user.id).toBe(me.id);
  expect(right.cookies[0]).toMatch(/^service_pending=; Max-Age=0; Path=\/api\/auth\/totp;/);
  const session = cookieValue(right.cookies.find((value) => value.startsWith('service_session=')));
  expect((await call('GET', '/api/user', { cookie: session })).body.user.id).toBe(me.id);
  expect(Object.keys((await getUser(me.id, { consistent: true }))?.sessions ?? {})).toHaveLength(
    sessionsBefore.length + 1,
  );
  // The recovery code is used up, also for a second pending sign-in.
  const again = await pendingSignIn(me.account);
  expect((await sendCode(again.cookie, me.recoveryCodes[0] as string)).body.error).toBe(INVALID_CODE);
});

test('without the pending cookie, or with a forged one, the code opens nothing', async () => {
  const me = await enrolledAndLinked();
  const before = await tableSnapshot();
  for (const cookie of [undefined, 'service_pending=Fe26.2**forged', `service_pending=${'x'.repeat(5000)}`]) {
    const refused = await sendCode(cookie, me.recoveryCodes[1] as string);
    expect(refused.body).toEqual({ error: SIGN_IN_EXPIRED, statusCode: 401 });
  }
  expect(changedKeys(before, await tableSnapshot()).filter((key) => !key.startsWith('THROTTLE#'))).toEqual(
    [],
  );
  // A session cookie is not a pending sign-in either.
  expect((await sendCode(me.cookie, me.recoveryCodes[1] as string)).status).toBe(401);
});

test('code guesses count against the username as at login: ten wrong ones lock the password login too', async () => {
  const me = await enrolledAndLinked();
  const { cookie } = await pendingSignIn(me.account);
  for (let guess = 0; guess < 10; guess++) expect((await sendCode(cookie, `00000${guess}`)).status).toBe(401);
  expect((await sendCode(cookie, me.recoveryCodes[2] as string)).status).toBe(429);
  const login = await call('POST', '/api/auth/login', {
    json: { username: me.username, password: PASSWORD },
    sourceIp: freshAddress(),
  });
  expect(login.status).toBe(429);
});

test('once TOTP is off, the provider signs in at once', async () => {
  const me = await enrolledAndLinked();
  expect(
    (await call('DELETE', '/api/user/mfa/totp', { cookie: me.cookie, json: { code: me.recoveryCodes[3] } }))
      .status,
  ).toBe(200);
  const { answer, cookie } = await pendingSignIn(me.account);
  expect(answer.headers.location).toBe('/');
  expect(cookie).toBeUndefined();
  expect(answer.cookies.some((value) => value.startsWith('service_session='))).toBe(true);
});

describe('a password change from a session the password did not make, TOTP on', () => {
  test('needs the current password or a code; a password session needs neither', async () => {
    const me = await enrolledAndLinked();
    const { cookie } = await pendingSignIn(me.account);
    const signedIn = await sendCode(cookie, me.recoveryCodes[4] as string);
    const providerSession = cookieValue(
      signedIn.cookies.find((value) => value.startsWith('service_session=')),
    );
    const before = await getUser(me.id, { consistent: true });

    const bare = await call('PATCH', '/api/user', {
      cookie: providerSession,
      json: { password: 'taken over' },
    });
    expect(bare.body).toEqual({ error: PROOF_REQUIRED, statusCode: 400 });
    const wrongCode = await call('PATCH', '/api/user', {
      cookie: providerSession,
      json: { password: 'taken over', code: '000000' },
    });
    expect(wrongCode.body).toEqual({ error: INVALID_CODE, statusCode: 400 });
    expect(await getUser(me.id, { consistent: true })).toEqual(before);

    const withCode = await call('PATCH', '/api/user', {
      cookie: providerSession,
      json: { password: 'changed with a code', code: me.recoveryCodes[5] },
    });
    expect(withCode.status).toBe(200);
    const withPassword = await call('PATCH', '/api/user', {
      cookie: providerSession,
      json: { password: 'changed with the password', currentPassword: 'changed with a code' },
    });
    expect(withPassword.status).toBe(200);
    // The user's own password session (the fixture's login, with its code) needs neither; it was
    // ended by the changes above, so a new one signs in.
    const login = await call('POST', '/api/auth/login', {
      json: { username: me.username, password: 'changed with the password', code: me.recoveryCodes[6] },
      sourceIp: freshAddress(),
    });
    const passwordSession = cookieValue(login.cookies[0]);
    expect(
      (await call('PATCH', '/api/user', { cookie: passwordSession, json: { password: 'changed again' } }))
        .status,
    ).toBe(200);
  });

  test('a session cookie from before sessions recorded how they were made counts as not the password', async () => {
    const me = await enrolledUser();
    const user = await getUser(me.id, { consistent: true });
    const [sessionId, issuedAt] = Object.entries(user?.sessions ?? {})[0] as [string, number];
    const old = `service_session=${await sealSession({ userId: me.id, sessionId, issuedAt })}`;
    const bare = await call('PATCH', '/api/user', { cookie: old, json: { password: 'taken over' } });
    expect(bare.body).toEqual({ error: PROOF_REQUIRED, statusCode: 400 });
  });

  test('code and currentPassword only go with a password', async () => {
    const me = await enrolledUser();
    const response = await call('PATCH', '/api/user', { cookie: me.cookie, json: { code: '123456' } });
    expect(response.status).toBe(400);
  });
});
