import { BatchWriteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { jest } from '@jest/globals';
import { documents, dynamodb, tableName } from '#shared/db/client';
import { linkRouteKey } from '#shared/db/keys/links';
import { userKey, usernameKey } from '#shared/db/keys/users';
import { createExport } from '#shared/exports/store';
import { createLink } from '#shared/links/store';
import { logger } from '#shared/log/logger';
import { createTag } from '#shared/tags/store';
import { decodeAvatar } from '#shared/users/avatar/avatar';
import { updateUser } from '#shared/users/changes';
import type { UserRecord } from '#shared/users/model';
import { getUser } from '#shared/users/store';
import { call, cookieValue } from '../support/client.ts';
import { failNth } from '../support/faults.ts';
import { partitionItems } from '../support/snapshot.ts';
import { PASSWORD, signedInUser } from '../support/users.ts';

const PNG_1X1 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** A user with a second session, an avatar and `extra` items standing in for file metadata. */
async function userWithData(extra: number) {
  const user = await signedInUser('USER');
  const second = await call('POST', '/api/auth/login', {
    json: { username: user.username, password: PASSWORD },
  });
  const avatar = await call('PATCH', '/api/user', { cookie: user.cookie, json: { avatar: PNG_1X1 } });
  expect(avatar.status).toBe(200);
  const { pk } = userKey(user.id);
  const items = Array.from({ length: extra }, (_, index) => ({
    PutRequest: { Item: { pk, sk: `FILE#${String(index).padStart(4, '0')}`, name: `file-${index}.png` } },
  }));
  for (let offset = 0; offset < items.length; offset += 25) {
    await documents.send(
      new BatchWriteCommand({ RequestItems: { [tableName]: items.slice(offset, offset + 25) } }),
    );
  }
  return { ...user, secondCookie: cookieValue(second.cookies[0]) };
}

async function usernameHeld(username: string) {
  const result = await documents.send(
    new GetCommand({ TableName: tableName, Key: usernameKey(username), ConsistentRead: true }),
  );
  return result.Item !== undefined;
}

async function expectLockedOut(user: {
  username: string;
  cookie: string;
  token: string;
  secondCookie: string;
}) {
  expect((await call('GET', '/api/user', { cookie: user.cookie })).status).toBe(401);
  expect((await call('GET', '/api/user', { cookie: user.secondCookie })).status).toBe(401);
  expect((await call('GET', '/api/user', { token: user.token })).status).toBe(401);
  const login = await call('POST', '/api/auth/login', {
    json: { username: user.username, password: PASSWORD },
  });
  expect(login.status).toBe(401);
  expect(login.body.error).toBe('invalid username or password');
}

afterEach(() => {
  dynamodb.middlewareStack.remove('injectedFault');
});

test('DELETE removes the user, its sessions, token, avatar and every partition item; the name is free', async () => {
  const admin = await signedInUser('ADMIN');
  const user = await userWithData(130);
  expect((await partitionItems(user.id)).length).toBe(132);

  const response = await call('DELETE', `/api/users/${user.id}`, { cookie: admin.cookie });
  expect(response.status).toBe(200);
  expect(response.body).toMatchObject({ id: user.id, username: user.username, role: 'USER', sessions: [] });

  expect(await partitionItems(user.id)).toEqual([]);
  expect(await usernameHeld(user.username)).toBe(false);
  await expectLockedOut(user);
  expect((await call('GET', `/api/users/${user.id}`, { cookie: admin.cookie })).status).toBe(404);
  expect((await call('DELETE', `/api/users/${user.id}`, { cookie: admin.cookie })).status).toBe(404);

  const reused = await call('POST', '/api/users', {
    cookie: admin.cookie,
    json: { username: user.username, password: PASSWORD },
  });
  expect(reused.status).toBe(200);
  expect(reused.body.id).not.toBe(user.id);
  // The new account starts empty: nothing of the old one is reachable through it.
  const login = await call('POST', '/api/auth/login', {
    json: { username: user.username, password: PASSWORD },
  });
  const cookie = cookieValue(login.cookies[0]);
  expect((await call('GET', '/api/user/avatar', { cookie })).status).toBe(404);
});

test('the optional body {"delete": true} is accepted; other bodies are 400 and delete nothing', async () => {
  const admin = await signedInUser('ADMIN');
  const kept = await signedInUser('USER');
  for (const body of [{ delete: 'yes' }, { delete: true, files: true }]) {
    const refused = await call('DELETE', `/api/users/${kept.id}`, { cookie: admin.cookie, json: body });
    expect(refused.status).toBe(400);
  }
  expect((await call('GET', '/api/user', { cookie: kept.cookie })).status).toBe(200);
  const deleted = await call('DELETE', `/api/users/${kept.id}`, {
    cookie: admin.cookie,
    json: { delete: true },
  });
  expect(deleted.status).toBe(200);
  expect((await call('GET', '/api/user', { cookie: kept.cookie })).status).toBe(401);
});

// The first transaction is the mark (with the pending-deletion record), the second the final one.
test.each([
  ['the second batch of partition deletes', 'BatchWriteItem', 2],
  ['the final transaction', 'TransactWriteItems', 2],
])(
  'an outage at %s: the user is locked out, the name held; a retry finishes the job',
  async (_, operation, nth) => {
    const admin = await signedInUser('ADMIN');
    const user = await userWithData(80);
    const fault = failNth(operation, nth);
    const logged = jest.spyOn(logger, 'error');
    const failed = await call('DELETE', `/api/users/${user.id}`, { cookie: admin.cookie });
    // A page's batches run at once: the others of its page were sent too.
    expect(fault.calls()).toBeGreaterThanOrEqual(nth);
    expect(failed.status).toBe(503);
    expect(failed.text).not.toContain('injected');
    expect(logged).toHaveBeenCalledWith(
      'unexpected error',
      expect.objectContaining({ error: expect.objectContaining({ name: 'InternalServerError' }) }),
    );
    logged.mockRestore();
    dynamodb.middlewareStack.remove('injectedFault');

    // Halfway: refused everywhere, name still held (no one else can take it while data remains).
    await expectLockedOut(user);
    expect(await usernameHeld(user.username)).toBe(true);
    const remaining = await partitionItems(user.id);
    expect(remaining.length).toBeGreaterThan(0);
    expect(remaining.length).toBeLessThan(83);
    const squatter = await call('POST', '/api/users', {
      cookie: admin.cookie,
      json: { username: user.username, password: PASSWORD },
    });
    expect(squatter.body.error).toBe('username is already taken');
    // It is still visible to the admin (so the deletion can be repeated) but takes no more changes.
    expect((await call('GET', `/api/users/${user.id}`, { cookie: admin.cookie })).status).toBe(200);
    const patch = await call('PATCH', `/api/users/${user.id}`, {
      cookie: admin.cookie,
      json: { avatar: PNG_1X1 },
    });
    expect(patch.status).toBe(409);

    const retried = await call('DELETE', `/api/users/${user.id}`, { cookie: admin.cookie });
    expect(retried.status).toBe(200);
    expect(await partitionItems(user.id)).toEqual([]);
    expect(await usernameHeld(user.username)).toBe(false);
    await expectLockedOut(user);
    const reused = await call('POST', '/api/users', {
      cookie: admin.cookie,
      json: { username: user.username, password: PASSWORD },
    });
    expect(reused.status).toBe(200);
  },
);

test('a deletion racing a rename of the same user leaves no orphan constraint', async () => {
  const admin = await signedInUser('ADMIN');
  for (let round = 0; round < 5; round++) {
    const user = await userWithData(0);
    const newName = `${user.username}-renamed`;
    const [deleted, renamed] = await Promise.all([
      call('DELETE', `/api/users/${user.id}`, { cookie: admin.cookie }),
      call('PATCH', '/api/user', { cookie: user.cookie, json: { username: newName } }),
    ]);
    expect(deleted.status).toBe(200);
    // 404: the rename landed and the deletion removed the user before the rename re-read it.
    expect([200, 401, 404, 409]).toContain(renamed.status);
    expect(await usernameHeld(user.username)).toBe(false);
    expect(await usernameHeld(newName)).toBe(false);
    expect(await partitionItems(user.id)).toEqual([]);
  }
});

test('a change that read the user before its deletion began cannot land after it', async () => {
  const admin = await signedInUser('ADMIN');
  const user = await userWithData(3);
  // What a PATCH /api/user that authenticated just before the deletion holds in memory.
  const stale = (await getUser(user.id, { consistent: true })) as UserRecord;
  // The final transaction (the first is the mark).
  failNth('TransactWriteItems', 2);
  expect((await call('DELETE', `/api/users/${user.id}`, { cookie: admin.cookie })).status).toBe(503);
  dynamodb.middlewareStack.remove('injectedFault');
  expect((await partitionItems(user.id)).map((item) => item.sk)).toEqual(['USER']);

  const lateName = `${user.username}-late`;
  await expect(
    updateUser(stale, { username: lateName, avatar: decodeAvatar(PNG_1X1), view: { embed: true } }),
  ).rejects.toMatchObject({ kind: 'conflict' });
  await expect(updateUser(stale, { view: { embed: true } })).rejects.toMatchObject({ kind: 'not_found' });
  expect(await usernameHeld(lateName)).toBe(false);
  expect((await partitionItems(user.id)).map((item) => item.sk)).toEqual(['USER']);

  expect((await call('DELETE', `/api/users/${user.id}`, { cookie: admin.cookie })).status).toBe(200);
  expect(await partitionItems(user.id)).toEqual([]);
  expect(await usernameHeld(user.username)).toBe(false);
});

test('a link, tag or export made by a request that authenticated before the deletion began is refused', async () => {
  const admin = await signedInUser('ADMIN');
  const user = await userWithData(0);
  // The final transaction (the first is the mark): the user is marked and its partition emptied.
  failNth('TransactWriteItems', 2);
  expect((await call('DELETE', `/api/users/${user.id}`, { cookie: admin.cookie })).status).toBe(503);
  dynamodb.middlewareStack.remove('injectedFault');

  const vanity = `late-${user.id.slice(0, 8)}`;
  const link = {
    destination: 'https://example.com/',
    vanity,
    enabled: true,
    maxViews: null,
    passwordHash: null,
  };
  // Each answers what the request's next call would get (401), and writes nothing.
  await expect(createLink(user.id, link, null)).rejects.toMatchObject({ kind: 'unauthenticated' });
  await expect(createTag(user.id, 'late', '#123456')).rejects.toMatchObject({ kind: 'unauthenticated' });
  await expect(createExport(user.id)).rejects.toMatchObject({ kind: 'unauthenticated' });
  expect((await partitionItems(user.id)).map((item) => item.sk)).toEqual(['USER']);
  const route = await documents.send(new GetCommand({ TableName: tableName, Key: linkRouteKey(vanity) }));
  expect(route.Item).toBeUndefined();

  expect((await call('DELETE', `/api/users/${user.id}`, { cookie: admin.cookie })).status).toBe(200);
  expect(await partitionItems(user.id)).toEqual([]);
});
