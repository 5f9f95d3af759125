import { forgetServiceKeysForTests } from '#shared/secrets';
import { call } from '../support/client.ts';
import { signedInUser } from '../support/users.ts';

/** Master keys as an operator writes them into the secret; the first signs, all verify. */
const KEY_1 = { id: '1', secret: 'first-master-key-for-the-rotation-test-0123456789' };
const KEY_2 = { id: '2', secret: 'second-master-key-for-the-rotation-test-9876543210' };

/** What a cold start after updating the secret sees. */
function deployKeys(keys: object[]) {
  process.env.SERVICE_KEYS = JSON.stringify(keys);
  forgetServiceKeysForTests();
}

/** iron's sealed format: `Fe26.2*<password id>*...`. */
const sealedUnder = (cookie: string) => cookie.split('=')[1]?.split('*')[1];

test('rotating the master key logs nobody out; retiring the old key ends what it issued', async () => {
  deployKeys([KEY_1]);
  const old = await signedInUser();
  expect(sealedUnder(old.cookie)).toBe('1');
  expect(old.token.startsWith('1.')).toBe(true);

  // Step 1: the new key first, the old one still listed.
  deployKeys([KEY_2, KEY_1]);
  expect((await call('GET', '/api/user', { cookie: old.cookie })).status).toBe(200);
  expect((await call('GET', '/api/user', { token: old.token })).status).toBe(200);
  const fresh = await signedInUser();
  expect(sealedUnder(fresh.cookie)).toBe('2');
  expect(fresh.token.startsWith('2.')).toBe(true);
  // The token shown to an existing user is re-issued under the new key, for the same nonce.
  const reissued = await call('GET', '/api/user/token', { cookie: old.cookie });
  expect(reissued.body.token.startsWith('2.')).toBe(true);
  expect(reissued.body.token.split('.').slice(1, 3)).toEqual(old.token.split('.').slice(1, 3));

  // Step 2, once sessions and tokens under the old key may go: remove it.
  deployKeys([KEY_2]);
  expect((await call('GET', '/api/user', { cookie: old.cookie })).status).toBe(401);
  expect((await call('GET', '/api/user', { token: old.token })).status).toBe(401);
  expect((await call('GET', '/api/user', { cookie: fresh.cookie })).status).toBe(200);
  expect((await call('GET', '/api/user', { token: fresh.token })).status).toBe(200);
  expect((await call('GET', '/api/user', { token: reissued.body.token })).status).toBe(200);
});
