import { Secret } from 'otpauth';
import { openTotpSecret } from '#shared/mfa/sealing';
import { forgetServiceKeysForTests } from '#shared/secrets';
import { getUser } from '#shared/users/store';
import { call } from '../support/client.ts';
import { changedKeys, tableSnapshot } from '../support/snapshot.ts';
import { windowTest } from '../support/throttle-window.ts';
import { enrolledUser, enrolledWithoutCodeUsed, freshAddress, login } from '../support/totp.ts';
import { codeAt, stepNow } from '../support/totp-codes.ts';
import { PASSWORD, signedInUser } from '../support/users.ts';

const THROTTLED = { error: 'too many attempts, try again later', statusCode: 429 };

// Each test counts within one throttle window (a run straddling a boundary runs again in the next).
describe('code guesses count toward the login throttle', () => {
  windowTest('ten wrong codes lock the username: the right code is then 429 too, and no cookie', async () => {
    const me = await enrolledWithoutCodeUsed();
    for (let guess = 0; guess < 9; guess++) {
      expect((await login(me.username, PASSWORD, String(100000 + guess))).status).toBe(401);
    }
    // Asking for the code (right password, no code) clears nothing: it is the tenth attempt.
    expect((await login(me.username, PASSWORD)).body).toEqual({ totp: true });
    const locked = await login(me.username, PASSWORD, codeAt(me.secret, stepNow()));
    expect(locked.status).toBe(429);
    expect(locked.body).toEqual(THROTTLED);
    expect(locked.cookies).toEqual([]);
  });

  windowTest('a right code clears the count, as a good password login does', async () => {
    const me = await enrolledWithoutCodeUsed();
    for (let guess = 0; guess < 9; guess++) await login(me.username, PASSWORD, String(200000 + guess));
    expect((await login(me.username, PASSWORD, codeAt(me.secret, stepNow() + 1))).status).toBe(200);
    for (let guess = 0; guess < 9; guess++) {
      expect((await login(me.username, PASSWORD, String(300000 + guess))).status).toBe(401);
    }
  });

  windowTest('codes guessed to turn TOTP off count against the same username', async () => {
    const me = await enrolledUser();
    for (let guess = 0; guess < 10; guess++) {
      const response = await call('DELETE', '/api/user/mfa/totp', {
        cookie: me.cookie,
        json: { code: String(400000 + guess) },
      });
      expect(response.status).toBe(400);
    }
    const locked = await call('DELETE', '/api/user/mfa/totp', {
      cookie: me.cookie,
      json: { code: me.recoveryCodes[0] },
    });
    expect(locked.body).toEqual(THROTTLED);
    expect((await login(me.username, PASSWORD)).status).toBe(429);
    expect((await getUser(me.id, { consistent: true }))?.totpSecret).toEqual(expect.any(String));
  });
});

test('a table dump holds neither the secret nor any recovery code, in any form', async () => {
  const me = await enrolledUser();
  // One recovery code used, one login with a code: every write TOTP makes has happened.
  expect((await login(me.username, PASSWORD, me.recoveryCodes[9])).status).toBe(200);
  const dump = [...(await tableSnapshot()).values()].join('\n');
  const forms = (text: string) => [text, text.toLowerCase(), text.toUpperCase(), text.replaceAll('-', '')];
  for (const secret of [me.secret, ...me.recoveryCodes]) {
    for (const form of forms(secret)) expect(dump).not.toContain(form);
  }
  // The secret's bytes are not there in another encoding either.
  const bytes = Buffer.from(Secret.fromBase32(me.secret).bytes);
  expect(dump).not.toContain(bytes.toString('base64'));
  expect(dump).not.toContain(bytes.toString('hex'));
  expect(dump).not.toContain(bytes.toString('base64url'));
});

describe('an administrator turns a locked-out user’s TOTP off with PATCH /api/users/{id}', () => {
  test('ADMIN on a USER: `totpSecret: null`, then the password alone signs in', async () => {
    const admin = await signedInUser('ADMIN');
    const user = await enrolledUser();
    const response = await call('PATCH', `/api/users/${user.id}`, {
      cookie: admin.cookie,
      json: { totpSecret: null },
    });
    expect(response.status).toBe(200);
    expect(response.body.totpSecret).toBeNull();
    const signedIn = await login(user.username, PASSWORD);
    expect(signedIn.status).toBe(200);
    expect(signedIn.cookies).toHaveLength(1);
    // Its recovery codes went with it.
    expect((await getUser(user.id, { consistent: true }))?.totpRecovery).toBeUndefined();
  });

  test.each([
    ['SUPERADMIN', 'ADMIN', 200],
    ['ADMIN', 'ADMIN', 404],
    ['ADMIN', 'SUPERADMIN', 404],
    ['USER', 'USER', 403],
  ] as const)('%s on a %s with TOTP on: %i', async (actorRole, targetRole, status) => {
    const actor = await signedInUser(actorRole);
    const target = await enrolledUser(targetRole);
    const response = await call('PATCH', `/api/users/${target.id}`, {
      cookie: actor.cookie,
      json: { totpSecret: null },
    });
    expect(response.status).toBe(status);
    const on = status !== 200;
    expect((await login(target.username, PASSWORD)).body.totp === true).toBe(on);
  });

  test('nothing but null: any other value is 400 and changes nothing', async () => {
    const admin = await signedInUser('ADMIN');
    const user = await enrolledUser();
    const before = await tableSnapshot();
    for (const totpSecret of ['JBSWY3DPEHPK3PXP', '', false, {}]) {
      const response = await call('PATCH', `/api/users/${user.id}`, {
        token: admin.token,
        json: { totpSecret },
      });
      expect(response.status).toBe(400);
      expect(response.body.error).toBe('totpSecret: totpSecret can only be null, which turns TOTP off');
    }
    // And users cannot turn their own off that way: only DELETE with a code.
    const own = await call('PATCH', '/api/user', { cookie: user.cookie, json: { totpSecret: null } });
    expect(own.status).toBe(400);
    expect(changedKeys(before, await tableSnapshot())).toEqual([]);
  });
});

describe('bad input is 400 and changes nothing', () => {
  test.each([
    ['POST', { code: '123456' }, 'secret is required'],
    ['POST', { secret: 'JBSWY3DPEHPK3PXP' }, 'code is required'],
    ['POST', { code: 123456, secret: 'JBSWY3DPEHPK3PXP' }, 'code: code must be a string'],
    [
      'POST',
      { code: '123456', secret: 'not base32!' },
      'secret: secret must be the base32 secret GET /api/user/mfa/totp offered',
    ],
    ['POST', { code: '123456', secret: 'JBSWY3DPEHPK3PXP', extra: 1 }, 'extra: unknown property'],
    ['POST', { code: 'x'.repeat(33), secret: 'JBSWY3DPEHPK3PXP' }, 'code: code is too long'],
    ['DELETE', {}, 'code is required'],
    ['DELETE', { code: '' }, 'code: code must not be empty'],
    ['DELETE', { code: null }, 'code: code must be a string'],
  ])('%s %j: %s', async (method, json, message) => {
    const me = method === 'POST' ? await signedInUser() : await enrolledUser();
    const before = await tableSnapshot();
    const response = await call(method, '/api/user/mfa/totp', { cookie: me.cookie, json });
    expect(response.status).toBe(400);
    expect(response.body.error).toBe(message);
    expect(changedKeys(before, await tableSnapshot())).toEqual([]);
  });

  test('a login code that is not a string, or too long, is 400 before any check', async () => {
    const me = await enrolledUser();
    for (const code of [123456, 'x'.repeat(33)]) {
      const response = await call('POST', '/api/auth/login', {
        json: { username: me.username, password: PASSWORD, code },
        sourceIp: freshAddress(),
      });
      expect(response.status).toBe(400);
    }
  });

  test('without a session: 401 on all three', async () => {
    for (const method of ['GET', 'POST', 'DELETE']) {
      expect((await call(method, '/api/user/mfa/totp', { json: { code: '123456' } })).status).toBe(401);
    }
  });
});

test('two enrolments racing with one offer: one turns TOTP on, the other is 409', async () => {
  const me = await signedInUser();
  const { secret } = (await call('GET', '/api/user/mfa/totp', { cookie: me.cookie })).body;
  const code = codeAt(secret, stepNow());
  const answers = await Promise.all(
    Array.from({ length: 4 }, () =>
      call('POST', '/api/user/mfa/totp', { cookie: me.cookie, json: { secret, code } }),
    ),
  );
  expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409, 409, 409]);
  const winner = answers.find((answer) => answer.status === 200);
  // The stored recovery codes are the winner's.
  expect((await login(me.username, PASSWORD, winner?.body.recoveryCodes[0])).status).toBe(200);
});

test('a key rotation keeps TOTP working: the next code re-seals the secret under the new key', async () => {
  const original = process.env.SERVICE_KEYS as string;
  const deploy = (keys: string) => {
    process.env.SERVICE_KEYS = keys;
    forgetServiceKeysForTests();
  };
  try {
    const me = await enrolledWithoutCodeUsed();
    const oldKeyId = (await getUser(me.id, { consistent: true }))?.totpSecret?.split('.')[1];
    const newKey = { id: 'next', secret: 'the-next-master-key-for-the-totp-rotation-test' };
    deploy(JSON.stringify([newKey, ...JSON.parse(original)]));
    expect((await login(me.username, PASSWORD, codeAt(me.secret, stepNow() + 1))).status).toBe(200);
    expect((await getUser(me.id, { consistent: true }))?.totpSecret?.split('.')[1]).toBe('next');
    expect(oldKeyId).not.toBe('next');
    // The old key can go now: the stored secret opens under the new one alone.
    deploy(JSON.stringify([newKey]));
    const stored = (await getUser(me.id, { consistent: true }))?.totpSecret as string;
    expect((await openTotpSecret(me.id, stored))?.secretBase32).toBe(me.secret);
    // Sealed for this user only: the same value on another user does not open.
    expect(await openTotpSecret((await signedInUser()).id, stored)).toBeUndefined();
  } finally {
    deploy(original);
  }
});
