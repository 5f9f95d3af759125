import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documents, dynamodb, tableName } from '#shared/db/client';
import { userIndexKey, userKey } from '#shared/db/keys/users';
import type { Role } from '#shared/users/model';
import { call, cookieValue, uniqueName } from '../support/client.ts';
import { PASSWORD, signedInUser, USER_RESOURCE_FIELDS } from '../support/users.ts';

type Signed = Awaited<ReturnType<typeof signedInUser>>;
type TargetKind = Role | 'self' | 'unknown';

/** Expected status of GET/PATCH/DELETE /api/users/{id}, per actor role and target. */
const STATUS: Record<Role, Record<TargetKind, number>> = {
  SUPERADMIN: { SUPERADMIN: 404, ADMIN: 200, USER: 200, self: 404, unknown: 404 },
  ADMIN: { SUPERADMIN: 404, ADMIN: 404, USER: 200, self: 404, unknown: 404 },
  USER: { SUPERADMIN: 403, ADMIN: 403, USER: 403, self: 403, unknown: 403 },
};

const cases = (['SUPERADMIN', 'ADMIN', 'USER'] as const).flatMap((actor) =>
  (['SUPERADMIN', 'ADMIN', 'USER', 'self', 'unknown'] as const).map(
    (target) => [actor, target, STATUS[actor][target]] as const,
  ),
);

async function targetOf(kind: TargetKind, actor: Signed): Promise<string> {
  if (kind === 'self') return actor.id;
  if (kind === 'unknown') return '4f1c2a8e-0000-4000-8000-000000000000';
  return (await signedInUser(kind)).id;
}

/** The target as stored, seen by a SUPERADMIN (who may see it) or by the store's absence. */
async function storedUser(id: string) {
  const root = await signedInUser('SUPERADMIN');
  return call('GET', `/api/users/${id}`, { cookie: root.cookie });
}

describe.each(cases)('%s acting on %s', (actorRole, kind, status) => {
  test(`GET /api/users/{id} answers ${status}`, async () => {
    const actor = await signedInUser(actorRole);
    const id = await targetOf(kind, actor);
    const response = await call('GET', `/api/users/${id}`, { token: actor.token });
    expect(response.status).toBe(status);
    if (status === 200) {
      expect(Object.keys(response.body).sort()).toEqual(USER_RESOURCE_FIELDS);
      expect(response.body).toMatchObject({ id, role: kind, quota: null });
    } else {
      expect(response.body).toEqual({
        error: status === 404 ? 'user not found' : expect.any(String),
        statusCode: status,
      });
    }
  });

  test(`PATCH /api/users/{id} answers ${status} and changes only what is allowed`, async () => {
    const actor = await signedInUser(actorRole);
    const id = await targetOf(kind, actor);
    const quota = { filesQuota: 'BY_FILES', maxBytes: null, maxFiles: 5 };
    const response = await call('PATCH', `/api/users/${id}`, { cookie: actor.cookie, json: { quota } });
    expect(response.status).toBe(status);
    if (status === 200) expect(response.body).toMatchObject({ id, quota });
    if (kind === 'self' || kind === 'unknown') return;
    const stored = await storedUser(id);
    if (kind === 'SUPERADMIN') return expect(stored.status).toBe(404);
    expect(stored.body.quota).toEqual(status === 200 ? quota : null);
  });

  test(`DELETE /api/users/{id} answers ${status} and deletes only what is allowed`, async () => {
    const actor = await signedInUser(actorRole);
    const id = await targetOf(kind, actor);
    const response = await call('DELETE', `/api/users/${id}`, { cookie: actor.cookie });
    expect(response.status).toBe(status);
    if (status === 200) expect(response.body).toMatchObject({ id, role: kind, sessions: [] });
    if (kind === 'self') expect((await call('GET', '/api/user', { cookie: actor.cookie })).status).toBe(200);
    if (kind === 'ADMIN' || kind === 'USER') {
      expect((await storedUser(id)).status).toBe(status === 200 ? 404 : 200);
    }
  });
});

describe('granting roles', () => {
  test.each([
    ['SUPERADMIN', 'USER', 'ADMIN', 200],
    ['SUPERADMIN', 'ADMIN', 'USER', 200],
    ['SUPERADMIN', 'USER', 'SUPERADMIN', 403],
    ['SUPERADMIN', 'ADMIN', 'SUPERADMIN', 403],
    ['ADMIN', 'USER', 'USER', 200],
    ['ADMIN', 'USER', 'ADMIN', 403],
    ['ADMIN', 'USER', 'SUPERADMIN', 403],
  ] as const)('%s setting a %s to %s: %i, stored role follows', async (actorRole, from, to, status) => {
    const actor = await signedInUser(actorRole);
    const target = await signedInUser(from);
    const response = await call('PATCH', `/api/users/${target.id}`, {
      cookie: actor.cookie,
      json: { role: to, quota: null, username: uniqueName('renamed') },
    });
    expect(response.status).toBe(status);
    const stored = await storedUser(target.id);
    expect(stored.body.role).toBe(status === 200 ? to : from);
    // A refused grant writes nothing else either.
    if (status === 403) expect(stored.body.username).toBe(target.username);
  });

  test.each([
    ['SUPERADMIN', undefined, 200, 'USER'],
    ['SUPERADMIN', 'ADMIN', 200, 'ADMIN'],
    ['SUPERADMIN', 'USER', 200, 'USER'],
    ['SUPERADMIN', 'SUPERADMIN', 403, undefined],
    ['ADMIN', undefined, 200, 'USER'],
    ['ADMIN', 'USER', 200, 'USER'],
    ['ADMIN', 'ADMIN', 403, undefined],
    ['ADMIN', 'SUPERADMIN', 403, undefined],
    ['USER', undefined, 403, undefined],
    ['USER', 'USER', 403, undefined],
  ] as const)('%s creating a user with role %s: %i', async (actorRole, role, status, created) => {
    const actor = await signedInUser(actorRole);
    const username = uniqueName('created');
    const response = await call('POST', '/api/users', {
      cookie: actor.cookie,
      json: { username, password: PASSWORD, ...(role ? { role } : {}) },
    });
    expect(response.status).toBe(status);
    const login = await call('POST', '/api/auth/login', { json: { username, password: PASSWORD } });
    if (status === 200) {
      expect(Object.keys(response.body).sort()).toEqual(USER_RESOURCE_FIELDS);
      expect(response.body).toMatchObject({ username, role: created, quota: null, sessions: [] });
      expect(login.status).toBe(200);
      expect(login.body.user.id).toBe(response.body.id);
    } else {
      // Nothing was written: the username does not exist.
      expect(login.status).toBe(401);
    }
  });
});

describe('gate and authentication', () => {
  test.each([
    ['GET', '/api/users'],
    ['POST', '/api/users'],
    ['GET', '/api/users/some-id'],
    ['PATCH', '/api/users/some-id'],
    ['DELETE', '/api/users/some-id'],
  ])('%s %s: 401 without credentials, 403 for a USER even with a bad body', async (method, path) => {
    const anonymous = await call(method, path, { json: { nonsense: true } });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ error: 'not logged in', statusCode: 401 });
    const user = await signedInUser('USER');
    const refused = await call(method, path, { cookie: user.cookie, json: { nonsense: true } });
    expect(refused.status).toBe(403);
    expect(refused.body.statusCode).toBe(403);
  });
});

describe('changes take effect on the next request', () => {
  test('a demoted ADMIN is refused on its very next request, a promoted USER is let in', async () => {
    const root = await signedInUser('SUPERADMIN');
    const admin = await signedInUser('ADMIN');
    const user = await signedInUser('USER');
    expect((await call('GET', '/api/users', { cookie: admin.cookie })).status).toBe(200);
    expect((await call('GET', '/api/users', { token: user.token })).status).toBe(403);

    await call('PATCH', `/api/users/${admin.id}`, { cookie: root.cookie, json: { role: 'USER' } });
    await call('PATCH', `/api/users/${user.id}`, { cookie: root.cookie, json: { role: 'ADMIN' } });

    expect((await call('GET', '/api/users', { cookie: admin.cookie })).status).toBe(403);
    expect((await call('GET', '/api/users', { token: admin.token })).status).toBe(403);
    expect((await call('GET', '/api/users', { token: user.token })).status).toBe(200);
    const me = await call('GET', '/api/user', { cookie: admin.cookie });
    expect(me.body.user.role).toBe('USER');
  });

  test('an admin password reset ends every session and the token of the user; the new password signs in', async () => {
    const admin = await signedInUser('ADMIN');
    const user = await signedInUser('USER');
    const second = await call('POST', '/api/auth/login', {
      json: { username: user.username, password: PASSWORD },
    });
    expect(second.status).toBe(200);
    const newPassword = 'a brand new password';
    const reset = await call('PATCH', `/api/users/${user.id}`, {
      cookie: admin.cookie,
      json: { password: newPassword },
    });
    expect(reset.status).toBe(200);
    expect(reset.body.sessions).toEqual([]);
    expect(JSON.stringify(reset.body)).not.toMatch(/\$2[aby]\$/);
    expect((await call('GET', '/api/user', { cookie: user.cookie })).status).toBe(401);
    expect(
      (await call('POST', '/api/auth/login', { json: { username: user.username, password: PASSWORD } }))
        .status,
    ).toBe(401);
    expect(
      (await call('POST', '/api/auth/login', { json: { username: user.username, password: newPassword } }))
        .status,
    ).toBe(200);
    // The token is replaced too: whoever held the old one (the reason for a reset) is out.
    expect((await call('GET', '/api/user', { token: user.token })).status).toBe(401);
    const signedIn = await call('POST', '/api/auth/login', {
      json: { username: user.username, password: newPassword },
    });
    const fresh = await call('GET', '/api/user/token', { cookie: cookieValue(signedIn.cookies[0]) });
    expect(fresh.body.token).not.toBe(user.token);
    expect((await call('GET', '/api/user', { token: fresh.body.token })).status).toBe(200);
    // The admin's own session is untouched.
    expect((await call('GET', '/api/user', { cookie: admin.cookie })).status).toBe(200);
  });
});

describe('a promotion racing an admin’s action', () => {
  /**
   * Promotes the target to ADMIN just before the handler's first write reaches DynamoDB: the
   * interleaving DynamoDB Local cannot be made to produce on demand.
   */
  function promoteBeforeFirst(operation: string, userId: string) {
    let promoted = false;
    dynamodb.middlewareStack.add(
      (next, context) => async (args) => {
        if (!promoted && context.commandName === `${operation}Command`) {
          promoted = true;
          await documents.send(
            new UpdateCommand({
              TableName: tableName,
              Key: userKey(userId),
              UpdateExpression: 'SET #role = :role, gsi12sk = :sk',
              ExpressionAttributeNames: { '#role': 'role' },
              ExpressionAttributeValues: { ':role': 'ADMIN', ':sk': userIndexKey(1, userId).gsi12sk },
            }),
          );
        }
        return next(args);
      },
      { step: 'initialize', name: 'injectedPromotion' },
    );
    return { promoted: () => promoted };
  }

  afterEach(() => {
    dynamodb.middlewareStack.remove('injectedPromotion');
  });

  test('an ADMIN’s password reset of a USER promoted meanwhile is refused and changes nothing', async () => {
    const admin = await signedInUser('ADMIN');
    const target = await signedInUser('USER');
    const race = promoteBeforeFirst('UpdateItem', target.id);
    const response = await call('PATCH', `/api/users/${target.id}`, {
      cookie: admin.cookie,
      json: { password: 'taken over at last', quota: { filesQuota: 'BY_FILES', maxFiles: 1 } },
    });
    expect(race.promoted()).toBe(true);
    expect(response.status).toBe(404);
    dynamodb.middlewareStack.remove('injectedPromotion');
    expect((await call('GET', '/api/user', { cookie: target.cookie })).body.user).toMatchObject({
      role: 'ADMIN',
      quota: null,
    });
    const login = await call('POST', '/api/auth/login', {
      json: { username: target.username, password: PASSWORD },
    });
    expect(login.status).toBe(200);
  });

  test('an ADMIN’s deletion of a USER promoted meanwhile is refused and deletes nothing', async () => {
    const admin = await signedInUser('ADMIN');
    const target = await signedInUser('USER');
    // The mark is the deletion's first write: a transaction with the pending-deletion record.
    const race = promoteBeforeFirst('TransactWriteItems', target.id);
    const response = await call('DELETE', `/api/users/${target.id}`, { cookie: admin.cookie });
    expect(race.promoted()).toBe(true);
    expect(response.status).toBe(404);
    dynamodb.middlewareStack.remove('injectedPromotion');
    expect((await call('GET', '/api/user', { token: target.token })).status).toBe(200);
    expect((await call('GET', '/api/user', { cookie: target.cookie })).status).toBe(200);
  });
});
