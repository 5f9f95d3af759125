import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { hashPassword } from '#shared/auth/password';
import { config } from '#shared/config/service';
import { documents, tableName } from '#shared/db/client';
import { usernameKey } from '#shared/db/keys/users';
import { createUser } from '#shared/users/creation';
import { call, uniqueName } from '../support/client.ts';
import { changedKeys, tableSnapshot } from '../support/snapshot.ts';
import { PASSWORD, signedInUser } from '../support/users.ts';

/**
 * Usernames are unique on their NFKC case-folded form and on their UTS #39 skeleton, and may not
 * mix scripts: a look-alike of an existing name (`аdmin` with a Cyrillic `а` beside `admin`) is
 * refused however it is spelt.
 */
const TAKEN = { error: 'username is already taken', statusCode: 400 };

async function create(admin: { cookie: string }, username: string) {
  return call('POST', '/api/users', { cookie: admin.cookie, json: { username, password: PASSWORD } });
}

describe('look-alike usernames', () => {
  test.each([
    ['a Cyrillic а (mixed scripts)', (name: string) => `\u0430${name.slice(1)}`, 'username mixes scripts'],
    [
      'fullwidth letters (NFKC)',
      (name: string) =>
        name.toUpperCase().replace(/[A-Z]/g, (c) => String.fromCodePoint((c.codePointAt(0) ?? 0) + 0xfee0)),
      'taken',
    ],
    ['a fullwidth first letter (NFKC)', (name: string) => name.replace(/^(a)/, 'ａ'), 'taken'],
  ])('%s is refused beside the original, by create and by rename', async (_, lookAlike, kind) => {
    const admin = await signedInUser('ADMIN');
    const original = `admin${uniqueName('x').replace(/[^a-z0-9]/g, '')}`;
    expect((await create(admin, original)).status).toBe(200);
    const other = await signedInUser('USER');
    const before = await tableSnapshot();
    const name = lookAlike(original);
    expect(name).not.toBe(original);
    const created = await create(admin, name);
    const renamed = await call('PATCH', '/api/user', { cookie: other.cookie, json: { username: name } });
    for (const response of [created, renamed]) {
      expect(response.status).toBe(400);
      if (kind === 'taken') expect(response.body).toEqual(TAKEN);
      else expect(response.body.error).toMatch(/username mixes scripts/);
    }
    // The rename counted against the renamer's limit; nothing else was written.
    expect(changedKeys(before, await tableSnapshot()).filter((key) => !key.startsWith('THROTTLE#'))).toEqual(
      [],
    );
  });

  test('German ß and SS fold to the same name', async () => {
    const admin = await signedInUser('ADMIN');
    const suffix = uniqueName('').replace(/[^a-z0-9]/g, '');
    expect((await create(admin, `straße${suffix}`)).status).toBe(200);
    expect((await create(admin, `STRASSE${suffix}`)).body).toEqual(TAKEN);
  });

  test('a whole-script confusable (Cyrillic асе beside Latin ace) is taken: same skeleton', async () => {
    const admin = await signedInUser('ADMIN');
    const digits = String(Date.now() % 1e9);
    expect((await create(admin, `ace${digits}`)).status).toBe(200);
    // Cyrillic а, с, е: one script, so only the skeleton tells them apart from the Latin name.
    expect((await create(admin, `\u0430\u0441\u0435${digits}`)).body).toEqual(TAKEN);
  });

  test('single-script names of other scripts, and Japanese mixing Han and kana, are fine', async () => {
    const admin = await signedInUser('ADMIN');
    const digits = String(Date.now() % 1e9);
    for (const name of [
      `Дмитрий${digits}`,
      `山田たろう${digits}`,
      `Ελένη${digits}`,
      `josé-${digits}`,
      `ᱚᱞ${digits}`,
    ]) {
      const response = await create(admin, name);
      expect(response.status).toBe(200);
      expect(response.body.username).toBe(name);
    }
  });

  test('login finds the user by the folded form of its name', async () => {
    const admin = await signedInUser('ADMIN');
    const suffix = uniqueName('').replace(/[^a-z0-9]/g, '');
    expect((await create(admin, `straße${suffix}`)).status).toBe(200);
    const login = await call('POST', '/api/auth/login', {
      json: { username: `STRASSE${suffix}`, password: PASSWORD },
    });
    expect(login.status).toBe(200);
    expect(login.body.user.username).toBe(`straße${suffix}`);
  });

  test('a user whose name constraint predates folding (lowercase key) still signs in and renames', async () => {
    const username = `Straße${uniqueName('').replace(/[^a-z0-9]/g, '')}`;
    const user = await createUser({ username, passwordHash: await hashPassword(PASSWORD), role: 'USER' });
    // The constraint item as the service wrote it before: keyed by the lowercase name.
    await documents.send(new DeleteCommand({ TableName: tableName, Key: usernameKey(username) }));
    await documents.send(
      new PutCommand({
        TableName: tableName,
        Item: { pk: `USERNAME#${username.toLowerCase()}`, sk: 'USERNAME', userId: user.id },
      }),
    );
    const login = await call('POST', '/api/auth/login', { json: { username, password: PASSWORD } });
    expect(login.status).toBe(200);
    // The old claim still holds the name against others, and a rename releases it.
    const admin = await signedInUser('ADMIN');
    expect((await create(admin, username.toLowerCase())).body).toEqual(TAKEN);
    const cookie = login.cookies[0]?.split(';')[0] as string;
    const newName = uniqueName('renamed');
    expect((await call('PATCH', '/api/user', { cookie, json: { username: newName } })).status).toBe(200);
    expect((await create(admin, username.toLowerCase())).status).toBe(200);
  });

  test('deleting a user frees its name and every look-alike of it', async () => {
    const admin = await signedInUser('SUPERADMIN');
    const digits = String(Date.now() % 1e9);
    const created = await create(admin, `ace${digits}`);
    expect((await call('DELETE', `/api/users/${created.body.id}`, { cookie: admin.cookie })).status).toBe(
      200,
    );
    expect((await create(admin, `\u0430\u0441\u0435${digits}`)).status).toBe(200);
  });
});

describe('rename throttling', () => {
  test('renames per user are limited: past the limit 429, nothing written', async () => {
    const me = await signedInUser();
    const limit = config().throttle.renamesPerUser;
    expect(limit).toBe(10);
    for (let i = 0; i < limit; i++) {
      const renamed = await call('PATCH', '/api/user', {
        cookie: me.cookie,
        json: { username: uniqueName('probe') },
      });
      expect(renamed.status).toBe(200);
    }
    const before = await tableSnapshot();
    const refused = await call('PATCH', '/api/user', {
      cookie: me.cookie,
      json: { username: uniqueName('probe') },
    });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(changedKeys(before, await tableSnapshot())).toEqual([]);
    // Probing taken names costs renames too, and other changes are not limited.
    expect(
      (await call('PATCH', '/api/user', { cookie: me.cookie, json: { view: { enabled: true } } })).status,
    ).toBe(200);
    const other = await signedInUser();
    expect(
      (await call('PATCH', '/api/user', { cookie: other.cookie, json: { username: uniqueName('mine') } }))
        .status,
    ).toBe(200);
  });
});
