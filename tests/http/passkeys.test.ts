import { createHash } from 'node:crypto';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { SESSION_REQUIRED } from '#shared/auth/authenticate';
import { openedSessionCookie, openSession } from '#shared/auth/session';
import { documents, tableName } from '#shared/db/client';
import { passkeyKey, webauthnChallengeKey } from '#shared/db/keys/users';
import {
  PASSKEY_SIGN_IN_FAILED,
  REGISTRATION_EXPIRED,
  REGISTRATION_REFUSED,
} from '#shared/passkeys/ceremonies';
import { LAST_PASSKEY } from '#shared/passkeys/credentials';
import { createUser } from '#shared/users/creation';
import { NO_PASSWORD } from '#shared/users/model';
import { assert, type Credential, register } from '../support/authenticator.ts';
import { type CallOptions, call, cookieValue, uniqueName } from '../support/client.ts';
import { changedKeys, tableSnapshot } from '../support/snapshot.ts';
import { signedInUser } from '../support/users.ts';

/**
 * The passkey routes through the route table's handlers, answered by a software authenticator
 * (tests/support/authenticator.ts) as a browser at http://localhost:3000 would (the relying party
 * the test processes are configured with), and wrongly on purpose: every refusal leaves the user and
 * its credentials as they were.
 */
// The dashboard's origin as npm start configures it (read when the first passkey route runs).
beforeAll(() => {
  process.env.PASSKEY_ORIGIN = 'http://localhost:3000';
});
afterAll(() => {
  delete process.env.PASSKEY_ORIGIN;
});

const registrationOptions = (caller: CallOptions) => call('POST', '/api/user/passkeys/options', caller);
const signInOptions = () => call('POST', '/api/auth/passkey/options');
const signIn = (json: unknown) => call('POST', '/api/auth/passkey', { json });

async function addPasskey(caller: CallOptions, name?: string) {
  const options = await registrationOptions(caller);
  expect(options.status).toBe(200);
  const { credential, response } = register(options.body);
  const added = await call('POST', '/api/user/passkeys', {
    ...caller,
    json: { response, ...(name ? { name } : {}) },
  });
  expect(added.status).toBe(200);
  return { credential, user: added.body.user };
}

async function signInWith(credential: Credential, ceremony: Parameters<typeof assert>[2] = {}) {
  const options = await signInOptions();
  expect(options.status).toBe(200);
  return signIn(assert(credential, options.body, ceremony));
}

/** A signed-in user whose calls carry only the session cookie, as the dashboard's do. */
async function inBrowser(role?: Parameters<typeof signedInUser>[0]) {
  const { id, cookie } = await signedInUser(role);
  return { id, cookie };
}

/** A user with no password and no provider: only a passkey can sign it in. */
async function passwordlessUser() {
  const user = await createUser({
    username: uniqueName('passkey-only'),
    passwordHash: NO_PASSWORD,
    role: 'USER',
  });
  const session = await openSession(user, 'passkey', undefined);
  return { id: user.id, cookie: cookieValue(await openedSessionCookie(session, true)) };
}

/** What a refused ceremony may change: the challenge it consumed (a challenge is one try). */
const changedBesidesChallenges = async (before: Map<string, string>) =>
  changedKeys(before, await tableSnapshot()).filter((key) => !key.startsWith('WEBAUTHN#'));

const credentialItem = async (credential: Credential) =>
  (
    await documents.send(
      new GetCommand({
        TableName: tableName,
        Key: passkeyKey(credential.id.toString('base64url')),
        ConsistentRead: true,
      }),
    )
  ).Item;

describe('registration', () => {
  test('adds a passkey the user sees without key material, and it signs in with the session cookie', async () => {
    const caller = await inBrowser();
    const { credential, user } = await addPasskey(caller, 'Laptop');
    const id = credential.id.toString('base64url');
    expect(user.passkeys).toEqual([{ id, name: 'Laptop', createdAt: expect.any(String), lastUsed: null }]);
    expect((await credentialItem(credential))?.userId).toBe(caller.id);

    const signedIn = await signInWith(credential);
    expect(signedIn.status).toBe(200);
    expect(JSON.stringify(signedIn.body)).not.toMatch(/publicKey|counter/);
    const cookie = cookieValue(signedIn.cookies.find((value) => value.startsWith('service_session=')));
    expect(signedIn.cookies[0]).toMatch(/; Max-Age=604800; Path=\/; .*HttpOnly; .*SameSite=Lax/);
    const me = await call('GET', '/api/user', { cookie });
    expect(me.status).toBe(200);
    expect(me.body.user.id).toBe(caller.id);
    expect(me.body.user.passkeys[0].lastUsed).toEqual(expect.any(String));
    expect((await credentialItem(credential))?.counter).toBe(1);
  });

  test('bad bodies: 400, nothing changes', async () => {
    const caller = await inBrowser();
    const options = await registrationOptions(caller);
    const { response } = register(options.body);
    const before = await tableSnapshot();
    for (const [json, error] of [
      [{}, 'response is required'],
      [{ response, extra: 1 }, 'extra: unknown property'],
      [{ response, name: '' }, 'name: name must not be empty'],
      [{ response, name: 'x'.repeat(65) }, 'name: name must be at most 64 characters'],
      [{ response, name: 'a\nb' }, 'name: name must not contain control characters'],
      [{ response: { ...response, type: 'password' } }, 'response.type: type must be public-key'],
      [{ response: { ...response, id: 'not base64url!' } }, 'response.id: id must be base64url'],
      [{ response: { ...response, response: {} } }, expect.stringContaining('clientDataJSON')],
      ['a string', 'body must be a JSON object'],
    ] as const) {
      const refused = await call('POST', '/api/user/passkeys', { ...caller, json });
      expect({ json, status: refused.status, error: refused.body.error }).toEqual({
        json,
        status: 400,
        error,
      });
    }
    expect(changedKeys(before, await tableSnapshot())).toEqual([]);
  });

  test("a replayed, unknown, expired or another user's challenge is refused and adds nothing", async () => {
    const caller = await inBrowser();
    const other = await inBrowser();
    const options = await registrationOptions(caller);
    const { response } = register(options.body);
    expect((await call('POST', '/api/user/passkeys', { ...caller, json: { response } })).status).toBe(200);
    const before = await tableSnapshot();

    const replayed = await call('POST', '/api/user/passkeys', { ...caller, json: { response } });
    expect(replayed.status).toBe(400);
    expect(replayed.body.error).toBe(REGISTRATION_EXPIRED);

    const unknown = register({ ...options.body, challenge: 'bm90LWlzc3VlZA' });
    expect(
      (await call('POST', '/api/user/passkeys', { ...caller, json: { response: unknown.response } })).body
        .error,
    ).toBe(REGISTRATION_EXPIRED);

    const theirs = register((await registrationOptions(other)).body);
    const stolen = await call('POST', '/api/user/passkeys', {
      ...caller,
      json: { response: theirs.response },
    });
    expect(stolen.status).toBe(400);
    expect(stolen.body.error).toBe(REGISTRATION_EXPIRED);

    const stale = await registrationOptions(caller);
    await expireChallenge(stale.body.challenge);
    const expired = await call('POST', '/api/user/passkeys', {
      ...caller,
      json: { response: register(stale.body).response },
    });
    expect(expired.status).toBe(400);
    expect(expired.body.error).toBe(REGISTRATION_EXPIRED);
    expect(await changedBesidesChallenges(before)).toEqual([]);
  });

  test('another origin, another relying party or no user verification: refused, adds nothing', async () => {
    const caller = await inBrowser();
    const before = await tableSnapshot();
    for (const ceremony of [
      { origin: 'https://evil.example' },
      { rpId: 'evil.example' },
      { userVerified: false },
    ]) {
      const { response } = register((await registrationOptions(caller)).body, ceremony);
      const refused = await call('POST', '/api/user/passkeys', { ...caller, json: { response } });
      expect({ ceremony, status: refused.status, error: refused.body.error }).toEqual({
        ceremony,
        status: 400,
        error: REGISTRATION_REFUSED,
      });
    }
    expect(await changedBesidesChallenges(before)).toEqual([]);
  });

  test('needs the session cookie, not the API token; signed out: 401', async () => {
    const caller = await signedInUser();
    const byToken = await registrationOptions({ token: caller.token });
    expect(byToken.status).toBe(403);
    expect(byToken.body.error).toBe(SESSION_REQUIRED);
    expect((await registrationOptions({})).status).toBe(401);
    expect((await call('POST', '/api/user/passkeys', { json: {} })).status).toBe(401);
  });
});

/** Backdates a challenge's expiry, as if its five minutes had passed (DynamoDB Local never expires items). */
async function expireChallenge(challenge: string) {
  await documents.send(
    new UpdateCommand({
      TableName: tableName,
      Key: webauthnChallengeKey(createHash('sha256').update(challenge).digest('base64url')),
      UpdateExpression: 'SET expiresAt = :past',
      ExpressionAttributeValues: { ':past': Math.floor(Date.now() / 1000) - 1 },
    }),
  );
}

describe('sign-in', () => {
  test('a replayed answer, an unknown or expired challenge, a counter that went back: the same 401, no session', async () => {
    const caller = await inBrowser();
    const { credential } = await addPasskey(caller);
    const options = await signInOptions();
    const answer = assert(credential, options.body, { counter: 5 });
    expect((await signIn(answer)).status).toBe(200);
    const before = await tableSnapshot();

    const expectRefused = async (json: unknown) => {
      const refused = await signIn(json);
      expect(refused.status).toBe(401);
      expect(refused.body).toEqual({ error: PASSKEY_SIGN_IN_FAILED, statusCode: 401 });
      expect(refused.cookies).toEqual([]);
    };
    await expectRefused(answer);
    await expectRefused(assert(credential, { challenge: 'bm90LWlzc3VlZA' }, { counter: 6 }));
    const stale = await signInOptions();
    await expireChallenge(stale.body.challenge);
    await expectRefused(assert(credential, stale.body, { counter: 7 }));
    // A clone of the authenticator, behind the stored counter (5), or level with it.
    await expectRefused(assert(credential, (await signInOptions()).body, { counter: 3 }));
    await expectRefused(assert(credential, (await signInOptions()).body, { counter: 5 }));
    expect(await changedBesidesChallenges(before)).toEqual([]);
    expect((await credentialItem(credential))?.counter).toBe(5);
    // The real authenticator, ahead of it, still signs in.
    expect((await signInWith(credential, { counter: 8 })).status).toBe(200);
  });

  test('another origin, no user verification, an unknown credential or a wrong signature: 401', async () => {
    const caller = await inBrowser();
    const { credential } = await addPasskey(caller);
    const before = await tableSnapshot();
    for (const ceremony of [
      { origin: 'https://evil.example' },
      { rpId: 'evil.example' },
      { userVerified: false },
    ]) {
      const refused = await signInWith(credential, ceremony);
      expect({ ceremony, status: refused.status }).toEqual({ ceremony, status: 401 });
    }
    const stranger = register((await registrationOptions(caller)).body).credential;
    expect((await signInWith(stranger)).status).toBe(401);
    const forged = { ...credential, privateKey: stranger.privateKey };
    expect((await signInWith(forged)).status).toBe(401);
    expect(await changedBesidesChallenges(before)).toEqual([]);
  });

  test('bad bodies: 400, nothing changes', async () => {
    const before = await tableSnapshot();
    for (const json of [
      {},
      { response: {} },
      { response: { id: 'x', rawId: 'x', type: 'public-key' } },
      [],
      { a: 1 },
    ]) {
      const refused = await signIn(json);
      expect({ json, status: refused.status }).toEqual({ json, status: 400 });
    }
    expect(changedKeys(before, await tableSnapshot())).toEqual([]);
  });
});

describe('rename and delete', () => {
  test("renames and deletes the caller's passkey; its credential goes with it", async () => {
    const caller = await inBrowser();
    const { credential } = await addPasskey(caller);
    const id = credential.id.toString('base64url');
    const renamed = await call('PATCH', `/api/user/passkeys/${id}`, {
      ...caller,
      json: { name: '  Phone ' },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.user.passkeys[0].name).toBe('Phone');
    const deleted = await call('DELETE', `/api/user/passkeys/${id}`, caller);
    expect(deleted.status).toBe(200);
    expect(deleted.body.user.passkeys).toEqual([]);
    expect(await credentialItem(credential)).toBeUndefined();
    expect((await signInWith(credential)).status).toBe(401);
  });

  test("another user's passkey or an id that cannot be one: 404; a bad name: 400; nothing changes", async () => {
    const owner = await inBrowser();
    const other = await inBrowser();
    const { credential } = await addPasskey(owner);
    const id = credential.id.toString('base64url');
    const before = await tableSnapshot();
    for (const path of [id, 'bm9uZQ', 'not%20an%20id']) {
      const renamed = await call('PATCH', `/api/user/passkeys/${path}`, { ...other, json: { name: 'mine' } });
      expect({ path, status: renamed.status, body: renamed.body }).toEqual({
        path,
        status: 404,
        body: { error: 'passkey not found', statusCode: 404 },
      });
      expect((await call('DELETE', `/api/user/passkeys/${path}`, other)).status).toBe(404);
    }
    for (const json of [{}, { name: '' }, { name: 7 }, { name: 'ok', extra: true }]) {
      const refused = await call('PATCH', `/api/user/passkeys/${id}`, { ...owner, json });
      expect({ json, status: refused.status }).toEqual({ json, status: 400 });
    }
    expect(changedKeys(before, await tableSnapshot())).toEqual([]);
  });

  test('the last way to sign in cannot be deleted; a provider can be unlinked while a passkey remains', async () => {
    const user = await passwordlessUser();
    const first = await addPasskey(user);
    const second = await addPasskey(user);
    const ids = [first, second].map(({ credential }) => credential.id.toString('base64url'));
    expect((await call('DELETE', `/api/user/passkeys/${ids[0]}`, user)).status).toBe(200);
    const before = await tableSnapshot();
    const refused = await call('DELETE', `/api/user/passkeys/${ids[1]}`, user);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe(LAST_PASSKEY);
    expect(changedKeys(before, await tableSnapshot())).toEqual([]);

    const linked = await createUser({
      username: uniqueName('provider-only'),
      passwordHash: NO_PASSWORD,
      role: 'USER',
      identity: { provider: 'oidc', providerId: uniqueName('sub'), username: 'someone' },
    });
    const cookie = cookieValue(
      await openedSessionCookie(await openSession(linked, 'provider', undefined), true),
    );
    const { credential } = await addPasskey({ cookie });
    const unlinked = await call('DELETE', '/api/user/oauth', { cookie, json: { provider: 'oidc' } });
    expect(unlinked.status).toBe(200);
    expect(unlinked.body.user.oauthProviders).toEqual([]);
    const last = await call('DELETE', `/api/user/passkeys/${credential.id.toString('base64url')}`, {
      cookie,
    });
    expect(last.status).toBe(400);
    expect(last.body.error).toBe(LAST_PASSKEY);
  });

  test('deleting the user deletes its credentials', async () => {
    const admin = await inBrowser('ADMIN');
    const user = await passwordlessUser();
    const { credential } = await addPasskey(user);
    expect((await call('DELETE', `/api/users/${user.id}`, { cookie: admin.cookie })).status).toBe(200);
    expect(await credentialItem(credential)).toBeUndefined();
  });
});
