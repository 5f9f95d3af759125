import { randomBytes } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documents, tableName } from '#shared/db/client';
import { userKey } from '#shared/db/keys/users';
import { updateFile } from '#shared/files/record/changes';
import { findNameClaim } from '#shared/files/record/name-claims';
import type { Role } from '#shared/users/model';
import { call } from '../support/client.ts';
import { download, upload } from '../support/files.ts';
import { windowTest } from '../support/throttle-window.ts';
import { signedInUser } from '../support/users.ts';

/** Issue 33: `/api/user/files` as Zipline 4.4 defines it (by name, `?id=`, rename, password check). */

type Signed = Awaited<ReturnType<typeof signedInUser>>;
const unique = (prefix: string) => `${prefix}-${randomBytes(5).toString('hex')}`;
const txt = (content: string, fileName = 'note.txt') => [{ fileName, type: 'text/plain', content }];
const patch = (owner: Signed, idOrName: string, json: unknown) =>
  call('PATCH', `/api/user/files/${encodeURIComponent(idOrName)}`, { token: owner.token, json });
const get = (owner: Signed, idOrName: string) =>
  call('GET', `/api/user/files/${encodeURIComponent(idOrName)}`, { token: owner.token });

async function uploadedFile(owner: Signed, headers: Record<string, string> = {}, content = 'some bytes') {
  const [file] = await upload(owner.token, txt(content), headers);
  if (!file) throw new Error('no file');
  return file;
}

describe('GET, PATCH, DELETE /api/user/files/{id} take an id or a public name', () => {
  test('by name as by id, for the owner only', async () => {
    const [owner, other] = [await signedInUser(), await signedInUser()];
    const file = await uploadedFile(owner);
    const byId = await get(owner, file.id);
    const byName = await get(owner, file.name);
    expect([byName.status, byName.body]).toEqual([200, byId.body]);
    // Another user's name is not found, as an unknown one is.
    const refused = await get(other, file.name);
    expect([refused.status, refused.body]).toEqual([404, { error: 'file not found', statusCode: 404 }]);
    expect((await get(owner, unique('missing'))).body).toEqual(refused.body);
    expect((await patch(other, file.name, { favorite: true })).status).toBe(404);
    expect((await call('DELETE', `/api/user/files/${file.name}`, { token: other.token })).status).toBe(404);

    const favorite = await patch(owner, file.name, { favorite: true });
    expect([favorite.status, favorite.body.id, favorite.body.favorite]).toEqual([200, file.id, true]);
    const deleted = await call('DELETE', `/api/user/files/${file.name}`, { token: owner.token });
    expect([deleted.status, deleted.body.id]).toEqual([200, file.id]);
    expect((await get(owner, file.id)).status).toBe(404);
    expect((await download(`/raw/${file.name}`)).status).toBe(404);
  });

  test('a name shaped like a file id is found by its name too', async () => {
    const owner = await signedInUser();
    const idLike = randomBytes(26).map((byte) => '0123456789abcdefghjkmnpqrstvwxyz'.charCodeAt(byte & 31));
    const name = Buffer.from(idLike).toString();
    const [file] = await upload(owner.token, txt('id-like', 'blob'), { 'x-zipline-filename': name });
    expect(file?.name).toBe(name);
    expect((await get(owner, name)).body.id).toBe(file?.id);
  });
});

describe('GET /api/user/files?id=: an administrator lists a user it may act on', () => {
  const listOf = async (actor: Signed, id: string, query = '') => {
    const response = await call('GET', `/api/user/files?id=${id}${query}`, { token: actor.token });
    return {
      status: response.status,
      body: response.body,
      ids: (response.body.page ?? []).map((f: { id: string }) => f.id),
    };
  };
  /** As `/api/users/{id}` (tests/http/users-roles.test.ts), but a USER's request for another is 404 too. */
  const cases: [Role, Role | 'unknown', number][] = [
    ['ADMIN', 'USER', 200],
    ['ADMIN', 'ADMIN', 404],
    ['ADMIN', 'SUPERADMIN', 404],
    ['ADMIN', 'unknown', 404],
    ['SUPERADMIN', 'ADMIN', 200],
    ['SUPERADMIN', 'USER', 200],
    ['SUPERADMIN', 'SUPERADMIN', 404],
    ['USER', 'USER', 404],
    ['USER', 'ADMIN', 404],
  ];
  test.each(cases)('%s listing a %s: %i', async (actorRole, targetRole, status) => {
    const actor = await signedInUser(actorRole);
    await uploadedFile(actor);
    const target = targetRole === 'unknown' ? undefined : await signedInUser(targetRole);
    const targetFile = target && (await uploadedFile(target));
    const id = target?.id ?? '4f1c2a8e-0000-4000-8000-000000000000';
    const listed = await listOf(actor, id);
    expect(listed.status).toBe(status);
    if (status === 200) {
      expect(listed.ids).toEqual([targetFile?.id]);
      expect(listed.body.total).toBe(1);
      const searched = await listOf(actor, id, `&searchQuery=${targetFile?.name.slice(0, 6)}`);
      expect(searched.ids).toEqual([targetFile?.id]);
    } else {
      expect(listed.body).toEqual({ error: 'user not found', statusCode: 404 });
    }
  });

  test("one's own id lists one's own files; an id of no user's shape is 404", async () => {
    const user = await signedInUser();
    const file = await uploadedFile(user);
    expect((await listOf(user, user.id)).ids).toEqual([file.id]);
    for (const id of ['nope', 'x'.repeat(3000)]) expect((await listOf(user, id)).status).toBe(404);
  });

  test("the listed files' urls follow their owner's view settings, not the administrator's", async () => {
    const [admin, user] = [await signedInUser('ADMIN'), await signedInUser()];
    const file = await uploadedFile(user);
    await call('PATCH', '/api/user', { token: admin.token, json: { view: { enabled: true } } });
    const own = (await call('GET', '/api/user/files', { token: user.token })).body.page[0];
    expect((await listOf(admin, user.id)).body.page[0]).toEqual(own);
    expect(own.id).toBe(file.id);
  });
});

describe('PATCH /api/user/files/{id} {name}: a rename', () => {
  test('moves the name claim with the file: old links stop answering, the name order follows', async () => {
    const owner = await signedInUser();
    const files = [];
    for (const name of ['b-first.txt', 'c-second.txt', 'd-third.txt'].map((n) => `${unique('o')}-${n}`))
      files.push(await uploadedFile(owner, { 'x-zipline-filename': name }, name));
    const [renamedFile] = files as [(typeof files)[number]];
    const newName = `0-${unique('renamed')}.txt`;
    const renamed = await patch(owner, renamedFile.id, { name: ` ${newName} ` });
    expect([renamed.status, renamed.body.name]).toEqual([200, newName]);
    // The link follows the name (its prefix is the File object's, /u/ once links are Zipline's).
    expect(renamed.body.url.split('/').pop()).toBe(newName);
    expect((await download(`/raw/${renamedFile.name}`)).status).toBe(404);
    expect((await get(owner, renamedFile.name)).status).toBe(404);
    const bytes = await download(`/raw/${newName}`);
    expect([bytes.status, bytes.bytes?.toString()]).toEqual([200, renamedFile.name]);
    expect((await get(owner, newName)).body.id).toBe(renamedFile.id);
    expect(await findNameClaim(renamedFile.name)).toBeUndefined();
    expect(await findNameClaim(newName)).toEqual({ userId: owner.id, fileId: renamedFile.id });
    // The by-name index moved: first in ascending name order, last in descending; search finds it.
    const byName = async (order: string) =>
      (await call('GET', `/api/user/files?sortBy=name&order=${order}`, { token: owner.token })).body.page.map(
        (file: { id: string }) => file.id,
      );
    expect((await byName('asc'))[0]).toBe(renamedFile.id);
    expect((await byName('desc')).at(-1)).toBe(renamedFile.id);
    const search = async (query: string) =>
      (await call('GET', `/api/user/files?searchQuery=${query}`, { token: owner.token })).body.page;
    expect(await search(newName.slice(2, 14))).toHaveLength(1);
    expect(await search(renamedFile.name.slice(0, 12))).toHaveLength(0);
    // The old name is free again: another upload may take it.
    const [reuse] = await upload(owner.token, txt('again'), { 'x-zipline-filename': renamedFile.name });
    expect(reuse?.name).toBe(renamedFile.name);
  });

  test("a taken name (the caller's or anyone's) is 400, as Zipline's, and changes nothing", async () => {
    const [owner, other] = [await signedInUser(), await signedInUser()];
    const [mine, another] = [await uploadedFile(owner), await uploadedFile(owner)];
    const theirs = await uploadedFile(other);
    for (const taken of [another.name, theirs.name]) {
      const refused = await patch(owner, mine.id, { name: taken, favorite: true });
      expect([refused.status, refused.body]).toEqual([
        400,
        { error: `a file named ${taken} already exists`, statusCode: 400 },
      ]);
    }
    const unchanged = await get(owner, mine.id);
    expect([unchanged.body.name, unchanged.body.favorite]).toEqual([mine.name, false]);
    expect(await findNameClaim(mine.name)).toEqual({ userId: owner.id, fileId: mine.id });
    // Its own name: nothing to move.
    expect((await patch(owner, mine.id, { name: mine.name })).body.updatedAt).toBe(unchanged.body.updatedAt);
  });

  test('a name the upload rules refuse is 400 and changes nothing', async () => {
    const owner = await signedInUser();
    const file = await uploadedFile(owner);
    for (const name of [
      '',
      '   ',
      'dir/a.txt',
      'a\\b.txt',
      'a?b',
      'a#b',
      '100%',
      '<b>',
      'tab\there',
      'x'.repeat(256),
      7,
    ]) {
      const refused = await patch(owner, file.id, { name });
      expect([name, refused.status]).toEqual([name, 400]);
      expect(refused.body.error).toMatch(/^name: /);
    }
    expect((await get(owner, file.id)).body.name).toBe(file.name);
    expect((await download(`/raw/${file.name}`)).status).toBe(200);
  });

  test('two renames to one name at once: exactly one wins, the claims stay consistent', async () => {
    const [first, second] = [await signedInUser(), await signedInUser()];
    for (let round = 0; round < 3; round++) {
      const [a, b] = [await uploadedFile(first), await uploadedFile(second)];
      const wanted = unique('contended');
      const answers = await Promise.all([
        patch(first, a.id, { name: wanted }),
        patch(second, b.id, { name: wanted }),
      ]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400]);
      const [winner, loser] = answers[0]?.status === 200 ? [a, b] : [b, a];
      const winnerOwner = winner === a ? first : second;
      expect(await findNameClaim(wanted)).toEqual({ userId: winnerOwner.id, fileId: winner.id });
      expect(await findNameClaim(winner.name)).toBeUndefined();
      expect(await findNameClaim(loser.name)).toEqual({
        userId: (loser === a ? first : second).id,
        fileId: loser.id,
      });
      expect((await download(`/raw/${loser.name}`)).status).toBe(200);
    }
  });

  test('one file renamed twice at once ends with one name, the other and the old one free', async () => {
    const owner = await signedInUser();
    const file = await uploadedFile(owner);
    const names = [unique('p'), unique('q')];
    const answers = await Promise.all(names.map((name) => patch(owner, file.id, { name })));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    const final = (await get(owner, file.id)).body.name;
    expect(names).toContain(final);
    for (const name of [...names, file.name]) {
      expect(await findNameClaim(name)).toEqual(
        name === final ? { userId: owner.id, fileId: file.id } : undefined,
      );
    }
  });
});

test("a rename that reaches storage after its owner's deletion began claims nothing", async () => {
  const owner = await signedInUser();
  const file = await uploadedFile(owner);
  // The deletion's mark, as users/deletion.ts sets it before it reads the partition.
  await documents.send(
    new UpdateCommand({
      TableName: tableName,
      Key: userKey(owner.id),
      UpdateExpression: 'SET deletingAt = :now',
      ExpressionAttributeValues: { ':now': new Date().toISOString() },
    }),
  );
  const wanted = unique('late');
  await expect(updateFile(owner.id, file.id, { name: wanted })).rejects.toMatchObject({
    kind: 'unauthenticated',
  });
  expect(await findNameClaim(wanted)).toBeUndefined();
  expect(await findNameClaim(file.name)).toEqual({ userId: owner.id, fileId: file.id });
});

describe("POST /api/user/files/{id}/password: Zipline's password check", () => {
  const secret = 'open sesame';
  const check = (name: string, password: unknown, sourceIp = '198.51.100.41') =>
    call('POST', `/api/user/files/${encodeURIComponent(name)}/password`, { json: { password }, sourceIp });

  test("the right password: {success: true}, no view counted; anything else the unknown name's 404", async () => {
    const owner = await signedInUser();
    const file = await uploadedFile(owner, { 'x-zipline-password': secret });
    const right = await check(file.name, secret);
    expect([right.status, right.body]).toEqual([200, { success: true }]);
    const unknown = await check(unique('missing'), secret);
    expect([unknown.status, unknown.body]).toEqual([404, { error: 'file not found', statusCode: 404 }]);
    expect((await check(file.name, 'wrong')).body).toEqual(unknown.body);
    // A file without a password has none to check (Zipline: 404); an id is no public handle.
    const open = await uploadedFile(owner);
    expect((await check(open.name, 'anything')).status).toBe(404);
    expect((await check(file.id, secret)).status).toBe(404);
    for (const password of ['', 7, 'x'.repeat(1025)])
      expect((await check(file.name, password)).status).toBe(400);
    expect((await get(owner, file.id)).body.views).toBe(0);
  });

  windowTest("wrong guesses count with /raw?pw='s on the name; right ones never", async () => {
    const owner = await signedInUser();
    const file = await uploadedFile(owner, { 'x-zipline-password': secret });
    const [viewer, stranger] = ['198.51.100.42', `198.51.100.${43 + Math.floor(Math.random() * 100)}`];
    for (let view = 0; view < 12; view++) expect((await check(file.name, secret, viewer)).status).toBe(200);
    for (let guess = 0; guess < 5; guess++) {
      expect((await check(file.name, `guess ${guess}`, stranger)).status).toBe(404);
      const raw = await call('GET', `/raw/${file.name}?pw=raw${guess}`, { sourceIp: stranger });
      expect(raw.status).toBe(404);
    }
    const limited = await check(file.name, 'guess 11', stranger);
    expect([limited.status, limited.body.error]).toEqual([429, 'too many attempts, try again later']);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // The stranger's guesses do not close the file for a viewer with its password.
    expect((await check(file.name, secret, viewer)).status).toBe(200);
  });
});
