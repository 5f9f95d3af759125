import { call } from '../support/client.ts';
import { changedKeys, tableSnapshot } from '../support/snapshot.ts';
import { enrolledUser, enrolledWithoutCodeUsed, login } from '../support/totp.ts';
import { atOneStep, codeAt, stepNow } from '../support/totp-codes.ts';
import { PASSWORD, signedInUser } from '../support/users.ts';

const INVALID_CODE = { error: 'invalid code', statusCode: 401 };

describe('enrolment: GET /api/user/mfa/totp, then POST with a code', () => {
  test('offers a base32 secret and its QR code, the same on every GET until enrolled', async () => {
    const me = await signedInUser();
    const offer = await call('GET', '/api/user/mfa/totp', { cookie: me.cookie });
    expect(offer.status).toBe(200);
    expect(Object.keys(offer.body).sort()).toEqual(['qrcode', 'secret']);
    expect(offer.body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(offer.body.qrcode).toMatch(/^data:image\/png;base64,/);
    const png = Buffer.from(offer.body.qrcode.split(',')[1], 'base64');
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect((await call('GET', '/api/user/mfa/totp', { cookie: me.cookie })).body).toEqual(offer.body);
    // Another user is offered another secret.
    const other = await signedInUser();
    const theirs = await call('GET', '/api/user/mfa/totp', { cookie: other.cookie });
    expect(theirs.body.secret).not.toBe(offer.body.secret);
  });

  test('a wrong code or a secret the server did not offer is 400 and changes nothing', async () => {
    const me = await signedInUser();
    const { secret } = (await call('GET', '/api/user/mfa/totp', { cookie: me.cookie })).body;
    const before = await tableSnapshot();
    const wrong = codeAt(secret, stepNow() + 10);
    const refused = await call('POST', '/api/user/mfa/totp', {
      cookie: me.cookie,
      json: { secret, code: wrong },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('invalid code');
    // A secret of the client's own choosing, with a right code for it.
    const chosen = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
    const foreign = await call('POST', '/api/user/mfa/totp', {
      cookie: me.cookie,
      json: { secret: chosen, code: codeAt(chosen, stepNow()) },
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error).toBe('secret is not the one GET /api/user/mfa/totp offered');
    expect(changedKeys(before, await tableSnapshot())).toEqual([]);
  });

  test('turns TOTP on: the User shows a marker, ten recovery codes once, GET says enabled', async () => {
    const me = await enrolledUser();
    const { user, recoveryCodes } = me.enrolment.body;
    expect(user.totpSecret).toBe('(enabled)');
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-7]{4}(-[a-z2-7]{4}){3}$/);
    expect(JSON.stringify(me.enrolment.body)).not.toContain(me.secret);
    expect((await call('GET', '/api/user/mfa/totp', { cookie: me.cookie })).body).toEqual({ enabled: true });
    const current = await call('GET', '/api/user', { token: me.token });
    expect(current.body.user.totpSecret).toBe('(enabled)');
    expect(current.text).not.toContain(me.secret);
    // A second enrolment while on is refused.
    const again = await call('POST', '/api/user/mfa/totp', {
      cookie: me.cookie,
      json: { secret: me.secret, code: codeAt(me.secret, stepNow()) },
    });
    expect(again.status).toBe(409);
  });
});

describe('login with TOTP on', () => {
  test('no code (absent, null or empty) answers {totp: true} and sets no cookie', async () => {
    const me = await enrolledUser();
    for (const code of [undefined, null, '']) {
      const response = await login(me.username, PASSWORD, code);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ totp: true });
      expect(response.cookies).toEqual([]);
    }
    // A wrong password is still the password's 401, code or not.
    const wrongPassword = await login(me.username, 'not the password', codeAt(me.secret, stepNow()));
    expect(wrongPassword.status).toBe(401);
    expect(wrongPassword.body.error).toBe('invalid username or password');
  });

  test('a wrong code is 401 `invalid code`; a right one signs in, and only once', async () => {
    const me = await enrolledUser();
    const wrong = await login(me.username, PASSWORD, codeAt(me.secret, stepNow() + 5));
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual(INVALID_CODE);
    expect(wrong.cookies).toEqual([]);
    // The next step's code: unused whether or not the server's clock has reached it yet.
    const code = codeAt(me.secret, Math.max(stepNow(), me.enrolledAt + 1) + 1);
    const signedIn = await login(me.username, PASSWORD, code);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user.id).toBe(me.id);
    expect(signedIn.cookies).toHaveLength(1);
    const replay = await login(me.username, PASSWORD, code);
    expect(replay.status).toBe(401);
    expect(replay.body).toEqual(INVALID_CODE);
    expect(replay.cookies).toEqual([]);
    // The code enrolment used is spent too, and so is any code older than the last one accepted.
    expect((await login(me.username, PASSWORD, codeAt(me.secret, me.enrolledAt))).body).toEqual(INVALID_CODE);
  });

  test.each([
    [-1, 200],
    [1, 200],
    [-2, 401],
    [2, 401],
  ])('a code %i step(s) off the server clock answers %i', async (offset, status) => {
    const response = await atOneStep(async (step) => {
      const me = await enrolledWithoutCodeUsed();
      return login(me.username, PASSWORD, codeAt(me.secret, step + offset));
    });
    expect(response.status).toBe(status);
  });

  test('two logins racing with one code: exactly one gets a session', async () => {
    const me = await enrolledWithoutCodeUsed();
    const code = codeAt(me.secret, stepNow() + 1);
    const answers = await Promise.all(Array.from({ length: 6 }, () => login(me.username, PASSWORD, code)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 401, 401, 401, 401, 401]);
  });
});

describe('recovery codes', () => {
  test('each signs in once, in any case and grouping, in place of a code', async () => {
    const me = await enrolledUser();
    const [first, second] = me.recoveryCodes as [string, string];
    const typed = first.replaceAll('-', ' ').toUpperCase();
    const signedIn = await login(me.username, PASSWORD, typed);
    expect(signedIn.status).toBe(200);
    expect(signedIn.cookies).toHaveLength(1);
    expect((await login(me.username, PASSWORD, first)).body).toEqual(INVALID_CODE);
    // Another user's recovery code is nothing here.
    const other = await enrolledUser();
    expect((await login(me.username, PASSWORD, other.recoveryCodes[0])).body).toEqual(INVALID_CODE);
    // Racing uses of one code: one wins.
    const racing = await Promise.all(Array.from({ length: 4 }, () => login(me.username, PASSWORD, second)));
    expect(racing.map((answer) => answer.status).sort()).toEqual([200, 401, 401, 401]);
  });
});

describe('DELETE /api/user/mfa/totp', () => {
  test('turns TOTP off with a current code; login then needs the password only', async () => {
    const me = await enrolledUser();
    const wrong = await call('DELETE', '/api/user/mfa/totp', {
      cookie: me.cookie,
      json: { code: codeAt(me.secret, stepNow() + 7) },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe('invalid code');
    const code = codeAt(me.secret, Math.max(stepNow(), me.enrolledAt + 1) + 1);
    const off = await call('DELETE', '/api/user/mfa/totp', { cookie: me.cookie, json: { code } });
    expect(off.status).toBe(200);
    expect(off.body.user.totpSecret).toBeNull();
    const signedIn = await login(me.username, PASSWORD);
    expect(signedIn.status).toBe(200);
    expect(signedIn.cookies).toHaveLength(1);
    expect((await call('DELETE', '/api/user/mfa/totp', { cookie: me.cookie, json: { code } })).status).toBe(
      409,
    );
    // Turned on again, it offers a new secret: the old one is never offered again.
    const offer = await call('GET', '/api/user/mfa/totp', { cookie: me.cookie });
    expect(offer.body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(offer.body.secret).not.toBe(me.secret);
  });

  test('a recovery code turns it off too', async () => {
    const me = await enrolledUser();
    const off = await call('DELETE', '/api/user/mfa/totp', {
      cookie: me.cookie,
      json: { code: me.recoveryCodes[3] },
    });
    expect(off.status).toBe(200);
    expect(off.body.user.totpSecret).toBeNull();
    expect((await call('GET', '/api/user/mfa/totp', { cookie: me.cookie })).body.secret).toBeDefined();
  });
});
