import { createRequire } from 'node:module';
import { jest } from '@jest/globals';

// Counts bcrypt work while delegating to the real binding: a throttled request must do none.
const realBcrypt = createRequire(import.meta.url)('@node-rs/bcrypt') as typeof import('@node-rs/bcrypt');
const bcryptCalls = { compare: 0, hash: 0 };
jest.unstable_mockModule('@node-rs/bcrypt', () => ({
  ...realBcrypt,
  compare: (...args: Parameters<typeof realBcrypt.compare>) => {
    bcryptCalls.compare++;
    return realBcrypt.compare(...args);
  },
  hash: (...args: Parameters<typeof realBcrypt.hash>) => {
    bcryptCalls.hash++;
    return realBcrypt.hash(...args);
  },
}));

const { call, uniqueName } = await import('../support/client.ts');
const { signedInUser, PASSWORD } = await import('../support/users.ts');
const { changedKeys, tableSnapshot } = await import('../support/snapshot.ts');
const { config } = await import('#shared/config/service');
const { windowTest } = await import('../support/throttle-window.ts');

const limits = config().throttle;
let addressCounter = 0;
/** A fresh client address, so only the limit under test can trip. */
const freshAddress = () => `198.51.${Math.floor(++addressCounter / 250)}.${addressCounter % 250}`;

const login = (username: string, password: string, sourceIp = freshAddress()) =>
  call('POST', '/api/auth/login', { json: { username, password }, sourceIp });

let prefixCounter = 0;
/** A fresh IPv6 /64 (written as `2001:db8:<n>:<subnet>`), its four-hex-digit group for other spellings. */
const freshPrefix = () => (++prefixCounter).toString(16).padStart(4, '0');

function expectThrottled(response: Awaited<ReturnType<typeof call>>) {
  expect(response.status).toBe(429);
  expect(response.body).toEqual({ error: 'too many attempts, try again later', statusCode: 429 });
  const retryAfter = Number(response.headers['retry-after']);
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(limits.windowSeconds);
}

test('the defaults: 10 failures per username and 50 per address in a 15-minute window', () => {
  expect(limits).toMatchObject({ windowSeconds: 900, loginPerUsername: 10, loginPerAddress: 50 });
});

describe('login throttling per username', () => {
  windowTest(
    'past the limit: 429 with Retry-After, no bcrypt work, even with the right password',
    async () => {
      const me = await signedInUser();
      for (let i = 0; i < limits.loginPerUsername; i++) {
        expect((await login(me.username, 'wrong password')).status).toBe(401);
      }
      const before = await tableSnapshot();
      const compares = bcryptCalls.compare;
      expectThrottled(await login(me.username, 'wrong password'));
      // The username is compared case-insensitively, as usernames are.
      expectThrottled(await login(` ${me.username.toUpperCase()} `, me.password));
      expect(bcryptCalls.compare).toBe(compares);
      // Only the addresses' counters moved: hammering a locked username uses up the address's budget.
      const changed = changedKeys(before, await tableSnapshot());
      expect(changed).toHaveLength(2);
      for (const key of changed) expect(key).toMatch(/^THROTTLE#login-address#/);
      // Other users are not affected.
      const other = await signedInUser();
      expect((await login(other.username, PASSWORD)).status).toBe(200);
    },
  );

  windowTest('unknown usernames are counted and cost the same one bcrypt compare as known ones', async () => {
    const ghost = uniqueName('ghost');
    const me = await signedInUser();
    const compares = bcryptCalls.compare;
    expect((await login(ghost, 'wrong password')).status).toBe(401);
    expect(bcryptCalls.compare).toBe(compares + 1);
    expect((await login(me.username, 'wrong password')).status).toBe(401);
    expect(bcryptCalls.compare).toBe(compares + 2);
    for (let i = 1; i < limits.loginPerUsername; i++) await login(ghost, 'wrong password');
    expectThrottled(await login(ghost, 'wrong password'));
    expect(bcryptCalls.compare).toBe(compares + 1 + limits.loginPerUsername);
  });

  windowTest('a successful login resets the count', async () => {
    const me = await signedInUser();
    for (let i = 0; i < limits.loginPerUsername - 1; i++) await login(me.username, 'wrong password');
    expect((await login(me.username, me.password)).status).toBe(200);
    for (let i = 0; i < limits.loginPerUsername; i++) {
      expect((await login(me.username, 'wrong password')).status).toBe(401);
    }
    expectThrottled(await login(me.username, 'wrong password'));
  });

  windowTest('concurrent guesses cannot overshoot: exactly the limit gets a bcrypt compare', async () => {
    const me = await signedInUser();
    const compares = bcryptCalls.compare;
    const responses = await Promise.all(
      Array.from({ length: 3 * limits.loginPerUsername }, () => login(me.username, 'wrong password')),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(limits.loginPerUsername);
    expect(statuses.filter((status) => status === 429)).toHaveLength(2 * limits.loginPerUsername);
    expect(bcryptCalls.compare).toBe(compares + limits.loginPerUsername);
  });

  windowTest(
    'the counter is one item in the table, hashed, expiring (TTL) when its window ends',
    async () => {
      const me = await signedInUser();
      const before = await tableSnapshot();
      const startedAt = Math.floor(Date.now() / 1000);
      const address = freshAddress();
      await login(me.username, 'wrong password', address);
      const after = await tableSnapshot();
      const added = changedKeys(before, after).map((key) => JSON.parse(after.get(key) as string));
      expect(added).toHaveLength(2);
      for (const item of added) {
        expect(item.pk).toMatch(/^THROTTLE#login-(username|address)#[A-Za-z0-9_-]{43}$/);
        expect(JSON.stringify(item)).not.toContain(me.username);
        expect(JSON.stringify(item)).not.toContain(address);
        expect(item.expiresAt).toBeGreaterThan(startedAt);
        expect(item.expiresAt).toBeLessThanOrEqual(startedAt + limits.windowSeconds);
        expect(item.expiresAt % limits.windowSeconds).toBe(0);
        expect(item.sk).toBe(`WINDOW#${item.expiresAt - limits.windowSeconds}`);
      }
    },
  );
});

describe('login throttling per client address', () => {
  windowTest('past the limit every username is refused from that address, and only from it', async () => {
    const address = freshAddress();
    for (let i = 0; i < limits.loginPerAddress; i++) {
      expect((await login(uniqueName('guess'), 'wrong password', address)).status).toBe(401);
    }
    const me = await signedInUser();
    const compares = bcryptCalls.compare;
    expectThrottled(await login(me.username, me.password, address));
    expect(bcryptCalls.compare).toBe(compares);
    expect((await login(me.username, me.password, freshAddress())).status).toBe(200);
  });

  windowTest('successful logins do not use up the address limit', async () => {
    const address = freshAddress();
    const me = await signedInUser();
    for (let i = 0; i < limits.loginPerAddress + 5; i++) {
      expect((await login(me.username, me.password, address)).status).toBe(200);
    }
    expect((await login(me.username, 'wrong password', address)).status).toBe(401);
  });
});

describe('IPv6 client addresses', () => {
  windowTest(
    'count per /64: one holder of a prefix cannot dodge the limit by rotating its interface id',
    async () => {
      // A host gets a whole /64; every address in it is one client, however it is written.
      const prefix = freshPrefix();
      for (let i = 0; i < limits.loginPerAddress; i++) {
        const address =
          i % 2
            ? `2001:db8:${prefix.replace(/^0+/, '')}:2::${i.toString(16)}`
            : `2001:0DB8:${prefix}:0002:${i}:0:0:1`;
        expect((await login(uniqueName('guess'), 'wrong password', address)).status).toBe(401);
      }
      const me = await signedInUser();
      expectThrottled(await login(me.username, me.password, `2001:db8:${prefix}:2:ffff:ffff:ffff:ffff`));
      expect((await login(me.username, me.password, `2001:db8:${prefix}:3::1`)).status).toBe(200);
      // IPv4 addresses (also IPv4-mapped IPv6 ones) still count one by one.
      expect((await login(me.username, me.password, `::ffff:${freshAddress()}`)).status).toBe(200);
    },
  );
});

describe('setup throttling per client address', () => {
  windowTest(
    'attempts that hash a password are limited; refused ones hash nothing and write nothing',
    async () => {
      // A user written straight through the store: setup is still open, and its username is taken.
      const taken = await signedInUser();
      const address = freshAddress();
      const setup = () =>
        call('POST', '/api/setup', {
          json: { username: taken.username, password: PASSWORD },
          sourceIp: address,
        });
      for (let i = 0; i < limits.setupPerAddress; i++) expect((await setup()).status).toBe(400);
      const hashes = bcryptCalls.hash;
      const before = await tableSnapshot();
      expectThrottled(await setup());
      expect(bcryptCalls.hash).toBe(hashes);
      expect(changedKeys(before, await tableSnapshot())).toEqual([]);
      expect((await call('GET', '/api/setup')).body).toEqual({ firstSetup: true, codeRequired: false });
    },
  );
});

describe('token reset throttling per user', () => {
  windowTest('past the limit: 429, the current token stays the valid one', async () => {
    const me = await signedInUser();
    let token = me.token;
    for (let i = 0; i < limits.tokenResetsPerUser; i++) {
      const reset = await call('PATCH', '/api/user/token', { cookie: me.cookie });
      expect(reset.status).toBe(200);
      token = reset.body.token;
    }
    const before = await tableSnapshot();
    expectThrottled(await call('PATCH', '/api/user/token', { token }));
    expect(changedKeys(before, await tableSnapshot())).toEqual([]);
    expect((await call('GET', '/api/user', { token })).status).toBe(200);
    // Another user's limit is their own.
    const other = await signedInUser();
    expect((await call('PATCH', '/api/user/token', { cookie: other.cookie })).status).toBe(200);
  });
});
