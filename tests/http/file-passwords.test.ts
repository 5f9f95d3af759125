import { randomBytes } from 'node:crypto';
import { call } from '../support/client.ts';
import { download, upload, uploadRequest } from '../support/files.ts';
import { signedInUser } from '../support/users.ts';

const secret = 'open sesame';
const txt = (content = 'protected bytes') => [{ fileName: 'secret.txt', type: 'text/plain', content }];
const unknownName = () => `missing-${randomBytes(6).toString('hex')}.txt`;
const withPassword = (name: string, password: string) => `/raw/${name}?pw=${encodeURIComponent(password)}`;

async function protectedUpload() {
  const owner = await signedInUser();
  const [file] = await upload(owner.token, txt(), { 'x-zipline-password': secret });
  if (!file) throw new Error('no file');
  return { owner, file };
}

describe('password-protected files', () => {
  test('x-zipline-password: the file says it is protected, never the hash; /raw needs ?pw=', async () => {
    const { owner, file } = await protectedUpload();
    const got = await call('GET', `/api/user/files/${file.id}`, { token: owner.token });
    expect(got.body.password).toBe(true);
    const listing = await call('GET', '/api/user/files', { token: owner.token });
    expect(listing.body.page[0].password).toBe(true);
    for (const text of [got.text, listing.text]) expect(text).not.toMatch(/\$2[aby]\$/);

    const unknown = await call('GET', `/raw/${unknownName()}`);
    expect(unknown.status).toBe(404);
    for (const url of [`/raw/${file.name}`, withPassword(file.name, 'wrong'), withPassword(file.name, '')]) {
      const refused = await call('GET', url);
      // The same answer as an unknown name: nothing tells a protected file from a missing one.
      expect([url, refused.status, refused.body]).toEqual([url, 404, unknown.body]);
      expect((await call('HEAD', url)).status).toBe(404);
    }
    const opened = await download(withPassword(file.name, secret));
    expect([opened.status, opened.bytes?.toString()]).toEqual([200, 'protected bytes']);
    expect((await call('HEAD', withPassword(file.name, secret))).status).toBe(200);
    // Only the successful download counted a view; HEAD counts none.
    expect((await call('GET', `/api/user/files/${file.id}`, { token: owner.token })).body.views).toBe(1);
  });

  test('PATCH password sets, replaces and removes it (null or "")', async () => {
    const owner = await signedInUser();
    const [file] = await upload(owner.token, txt());
    const name = file?.name as string;
    expect((await download(`/raw/${name}`)).status).toBe(200);
    const set = await call('PATCH', `/api/user/files/${file?.id}`, {
      token: owner.token,
      json: { password: 'first' },
    });
    expect([set.status, set.body.password]).toEqual([200, true]);
    expect(set.text).not.toMatch(/\$2[aby]\$/);
    expect((await download(`/raw/${name}`)).status).toBe(404);
    expect((await download(withPassword(name, 'first'))).status).toBe(200);
    await call('PATCH', `/api/user/files/${file?.id}`, { token: owner.token, json: { password: 'second' } });
    expect((await download(withPassword(name, 'first'))).status).toBe(404);
    expect((await download(withPassword(name, 'second'))).status).toBe(200);
    for (const password of [null, '']) {
      await call('PATCH', `/api/user/files/${file?.id}`, { token: owner.token, json: { password: 'again' } });
      const removed = await call('PATCH', `/api/user/files/${file?.id}`, {
        token: owner.token,
        json: { password },
      });
      expect([removed.status, removed.body.password]).toEqual([200, false]);
      expect((await download(`/raw/${name}`)).status).toBe(200);
    }
    // A password is still served to a link that carries one by habit.
    expect((await download(withPassword(name, 'anything'))).status).toBe(200);
  });

  test('passwords bcrypt cannot take whole, or with control characters, are 400 and change nothing', async () => {
    const owner = await signedInUser();
    const [file] = await upload(owner.token, txt());
    const long = 'x'.repeat(73);
    const patched = await call('PATCH', `/api/user/files/${file?.id}`, {
      token: owner.token,
      json: { password: long, favorite: true },
    });
    expect(patched.body).toEqual({
      error: 'password must be at most 72 bytes, without control characters',
      statusCode: 400,
    });
    const uploaded = await uploadRequest(owner.token, txt(), { 'x-zipline-password': long });
    expect(uploaded.body.error).toBe(
      'x-zipline-password must be at most 72 bytes, without control characters',
    );
    const after = await call('GET', `/api/user/files/${file?.id}`, { token: owner.token });
    expect([after.body.password, after.body.favorite]).toEqual([false, false]);
    expect((await call('GET', '/api/user/files', { token: owner.token })).body.total).toBe(1);
  });

  test('guesses are throttled per name, unknown names alike; right passwords are not counted', async () => {
    const { file } = await protectedUpload();
    // Each party its own address: the per-address limit is tests/hardening/file-password-guesses.test.ts's.
    const [viewer, stranger] = ['198.51.100.21', '198.51.100.22'];
    const from = (sourceIp: string, name: string, password: string) =>
      call('GET', withPassword(name, password), { sourceIp });
    // The right password any number of times: each gives its attempt back.
    for (let view = 0; view < 12; view++) expect((await from(viewer, file.name, secret)).status).toBe(200);
    const missing = unknownName();
    for (const name of [file.name, missing]) {
      for (let guess = 0; guess < 10; guess++)
        expect((await from(stranger, name, `guess ${guess}`)).status).toBe(404);
      const limited = await from(stranger, name, 'guess 11');
      expect([limited.status, limited.body.error]).toEqual([429, 'too many attempts, try again later']);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    }
    // A stranger's wrong guesses do not close the file for the viewers who have its password.
    expect((await from(viewer, file.name, secret)).status).toBe(200);
    // Files without a password are never throttled, whatever ?pw= says.
    const owner = await signedInUser();
    const [open] = await upload(owner.token, txt('open'));
    for (let view = 0; view < 12; view++)
      expect((await from(stranger, open?.name as string, 'x')).status).toBe(200);
  });

  test('a presigned upload keeps its password; the owner still sees and manages the file', async () => {
    const owner = await signedInUser();
    const started = await call('POST', '/api/user/files/uploads', {
      token: owner.token,
      json: { originalName: 'big.bin', size: 4, type: 'application/octet-stream' },
      headers: { 'x-zipline-password': secret },
    });
    expect(JSON.stringify(started.body)).not.toContain(secret);
    await fetch(started.body.url, { method: 'PUT', headers: started.body.headers, body: 'abcd' });
    const completed = await call('POST', `/api/user/files/uploads/${started.body.id}/complete`, {
      token: owner.token,
    });
    const name = completed.body.files[0].name;
    expect((await download(`/raw/${name}`)).status).toBe(404);
    expect((await download(withPassword(name, secret))).bytes?.toString()).toBe('abcd');
    const id = completed.body.files[0].id;
    expect((await call('GET', `/api/user/files/${id}`, { token: owner.token })).body.password).toBe(true);
    // The owner's raw route needs no password.
    const own = await call('GET', `/api/user/files/${id}/raw`, { token: owner.token });
    expect([own.status, own.text]).toEqual([200, 'abcd']);
    expect((await call('DELETE', `/api/user/files/${id}`, { token: owner.token })).status).toBe(200);
  });
});
