import { dynamodb } from '#shared/db/client';
import { getUser } from '#shared/users/store';
import { call, uniqueName } from '../support/client.ts';
import {
  faultInjector,
  provisionedThroughputExceeded,
  singleItemConflict,
  socketTimeout,
  throttlingException,
  transactionConflict,
} from '../support/faults.ts';
import { PNG_1X1 } from '../support/pixels.ts';
import { changedKeys, tableSnapshot } from '../support/snapshot.ts';
import { signedInUser } from '../support/users.ts';

const faults = faultInjector();
afterEach(() => faults.clear());

const BUSY = { error: 'service is busy, try again', statusCode: 503 };
const count = (command: string) => faults.attempts.filter((name) => name === command).length;

describe('retried where safe', () => {
  test.each([
    ['ProvisionedThroughputExceededException', provisionedThroughputExceeded],
    ['ThrottlingException', throttlingException],
    ['a timeout', socketTimeout],
  ])('%s twice on a read: the SDK retries and the caller sees a 200', async (_, error) => {
    const me = await signedInUser();
    faults.clear();
    faults.inject({ command: 'GetItemCommand', error, times: 2 });
    const response = await call('GET', '/api/user', { cookie: me.cookie });
    expect(response.status).toBe(200);
    expect(response.body.user.id).toBe(me.id);
    expect(count('GetItemCommand')).toBe(3);
  });

  test('throttling twice on a write: retried, applied exactly once', async () => {
    const me = await signedInUser();
    faults.clear();
    faults.inject({ command: 'UpdateItemCommand', error: throttlingException, times: 2 });
    const response = await call('PATCH', '/api/user', {
      cookie: me.cookie,
      json: { view: { content: 'hi' } },
    });
    expect(response.status).toBe(200);
    expect(count('UpdateItemCommand')).toBe(3);
    expect((await getUser(me.id, { consistent: true }))?.view).toEqual({ content: 'hi' });
  });

  test('a single-item write meeting a transaction twice: retried, the session is added once', async () => {
    const me = await signedInUser();
    const credentials = { json: { username: me.username, password: me.password } };
    faults.clear();
    expect((await call('POST', '/api/auth/login', credentials)).status).toBe(200);
    const updatesPerLogin = count('UpdateItemCommand');
    faults.clear();
    faults.inject({ command: 'UpdateItemCommand', error: singleItemConflict, times: 2 });
    const login = await call('POST', '/api/auth/login', credentials);
    expect(login.status).toBe(200);
    expect(count('UpdateItemCommand')).toBe(updatesPerLogin + 2);
    expect(Object.keys((await getUser(me.id, { consistent: true }))?.sessions ?? {})).toHaveLength(3);
  });

  test('a transaction conflict twice: retried by transactWrite, the rename lands once', async () => {
    const me = await signedInUser();
    const newName = uniqueName('renamed');
    faults.clear();
    faults.inject({ command: 'TransactWriteItemsCommand', error: transactionConflict(3), times: 2 });
    const response = await call('PATCH', '/api/user', { cookie: me.cookie, json: { username: newName } });
    expect(response.status).toBe(200);
    expect(response.body.user.username).toBe(newName);
    expect(count('TransactWriteItemsCommand')).toBe(3);
  });

  test('a timeout after the transaction was applied: the SDK resends it with the same idempotency token', async () => {
    const me = await signedInUser();
    const newName = uniqueName('renamed');
    faults.clear();
    faults.inject({ command: 'TransactWriteItemsCommand', error: socketTimeout, times: 1, afterSend: true });
    const response = await call('PATCH', '/api/user', { cookie: me.cookie, json: { username: newName } });
    expect(response.status).toBe(200);
    expect(response.body.user.username).toBe(newName);
    expect(count('TransactWriteItemsCommand')).toBe(2);
    // The old name is free again, the new one is taken by this user only.
    const other = await signedInUser();
    expect(
      (await call('PATCH', '/api/user', { cookie: other.cookie, json: { username: me.username } })).status,
    ).toBe(200);
    expect(
      (await call('PATCH', '/api/user', { cookie: other.cookie, json: { username: newName } })).body,
    ).toEqual({
      error: 'username is already taken',
      statusCode: 400,
    });
  });
});

describe('a clean 503 where retries run out, and no partial writes', () => {
  test.each([
    ['ProvisionedThroughputExceededException', provisionedThroughputExceeded],

    ['a timeout', socketTimeout],
  ])('%s on every attempt of a read: 503 with Retry-After, no internals shown', async (_, error) => {
    const me = await signedInUser();
    faults.clear();
    faults.inject({ command: 'GetItemCommand', error, times: Number.POSITIVE_INFINITY });
    const response = await call('GET', '/api/user', { cookie: me.cookie });
    expect(response.status).toBe(503);
    expect(response.body).toEqual(BUSY);
    expect(response.headers['retry-after']).toBe('1');
    expect(response.text).not.toMatch(/injected|Exception|Error|at /);
    // Every attempt the SDK's standard strategy allows DynamoDB (4), then the 503.
    expect(count('GetItemCommand')).toBe(await dynamodb.config.maxAttempts());
  });

  test('a create-user transaction (user, username, avatar chunks) throttled throughout writes nothing', async () => {
    const admin = await signedInUser('SUPERADMIN');
    const username = uniqueName('created');
    const before = await tableSnapshot();
    faults.clear();
    faults.inject({
      command: 'TransactWriteItemsCommand',
      error: throttlingException,
      times: Number.POSITIVE_INFINITY,
    });
    const response = await call('POST', '/api/users', {
      cookie: admin.cookie,
      json: { username, password: 'long enough password', avatar: PNG_1X1.toString('base64') },
    });
    expect(response.status).toBe(503);
    expect(response.body).toEqual(BUSY);
    faults.clear();
    expect(changedKeys(before, await tableSnapshot())).toEqual([]);
    expect(
      (await call('POST', '/api/auth/login', { json: { username, password: 'long enough password' } }))
        .status,
    ).toBe(401);
  });

  test('a rename in conflict on every attempt: 503 after transactWrite gives up, nothing half-renamed', async () => {
    const me = await signedInUser();
    const before = await tableSnapshot();
    faults.clear();
    faults.inject({
      command: 'TransactWriteItemsCommand',
      error: transactionConflict(3),
      times: Number.POSITIVE_INFINITY,
    });
    const response = await call('PATCH', '/api/user', {
      cookie: me.cookie,
      json: { username: uniqueName('renamed') },
    });
    expect(response.status).toBe(503);
    expect(response.body).toEqual(BUSY);
    expect(count('TransactWriteItemsCommand')).toBe(4);
    faults.clear();
    // Only the rename limit counted the attempt (it is counted before the work, as logins are).
    expect(changedKeys(before, await tableSnapshot())).toEqual([
      expect.stringMatching(/^THROTTLE#rename-user#/),
    ]);
  });

  test('a login whose session write times out throughout: 503, no session added', async () => {
    const me = await signedInUser();
    const sessionsBefore = (await getUser(me.id, { consistent: true }))?.sessions;
    faults.clear();
    // The first two UpdateItems are the throttle counters; the session write is the third.
    faults.inject({
      command: 'UpdateItemCommand',
      skip: 2,
      error: socketTimeout,
      times: Number.POSITIVE_INFINITY,
    });
    const response = await call('POST', '/api/auth/login', {
      json: { username: me.username, password: me.password },
    });
    expect(response.status).toBe(503);
    expect(response.body).toEqual(BUSY);
    expect(response.cookies).toEqual([]);
    faults.clear();
    expect((await getUser(me.id, { consistent: true }))?.sessions).toEqual(sessionsBefore);
  });
});
