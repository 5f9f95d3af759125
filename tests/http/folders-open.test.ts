import { jest } from '@jest/globals';
import { getItem } from '#shared/db/client';
import { fileStatsKey } from '#shared/db/keys/files';
import { OPEN_UPLOADS_PER_ADDRESS } from '#shared/folders/open-uploads';
import { call } from '../support/client.ts';
import { download } from '../support/files.ts';
import { multipart } from '../support/multipart.ts';
import { updateUserQuota } from '../support/quota.ts';
import { signedInUser } from '../support/users.ts';

/** Uploads without a token into a folder open to uploads (issue 35, docs/folders.md). */

jest.setTimeout(180_000);

const anonymousUpload = (
  folder: string,
  sourceIp: string,
  content = 'dropped',
  path = '/api/upload',
  headers = {},
) => {
  const part = multipart([{ fileName: 'dropped.txt', type: 'text/plain', content }]);
  return call('POST', path, {
    raw: part.body,
    sourceIp,
    headers: { 'content-type': part.contentType, 'x-zipline-folder': folder, ...headers },
  });
};
let address = 0;
const nextAddress = () => `198.18.${Math.floor(address / 250) % 250}.${address++ % 250}`;

test('a closed folder refuses an upload without a token (401, nothing stored); an open one takes it for its owner', async () => {
  const owner = await signedInUser();
  const folder = (await call('POST', '/api/user/folders', { token: owner.token, json: { name: 'Drop' } }))
    .body;
  const ip = nextAddress();
  const closed = await anonymousUpload(folder.id, ip);
  expect(closed.status).toBe(401);
  expect((await anonymousUpload('01arz3ndektsv4rrffq69g5fav', ip)).status).toBe(401);
  expect(await getItem(fileStatsKey(owner.id))).toBeUndefined();
  await call('PATCH', `/api/user/folders/${folder.id}`, { token: owner.token, json: { allowUploads: true } });
  const open = await anonymousUpload(folder.id, ip, 'twelve bytes');
  expect(open.status).toBe(200);
  expect((await download(open.body.files[0].url)).bytes?.toString()).toBe('twelve bytes');
  expect(await getItem(fileStatsKey(owner.id), { consistent: true })).toMatchObject({ files: 1, bytes: 12 });
  const listed = await call('GET', `/api/user/files?folder=${folder.id}`, { token: owner.token });
  expect(listed.body.page.map((file: { id: string }) => file.id)).toEqual([open.body.files[0].id]);
  // The owner deletes it as any of its files.
  expect(
    (await call('DELETE', `/api/user/files/${open.body.files[0].id}`, { token: owner.token })).status,
  ).toBe(200);
  // A partial upload of one chunk too.
  const partial = await anonymousUpload(folder.id, ip, 'chunk', '/api/upload/partial', {
    'content-range': 'bytes 0-5/5',
    'x-zipline-p-filename': 'chunk.txt',
    'x-zipline-p-lastchunk': 'true',
  });
  expect(partial.status).toBe(200);
  expect((await call('GET', `/api/user/folders/${folder.id}`, { token: owner.token })).body._count).toEqual({
    files: 1,
  });
});

test("the owner's quota counts them, and each address is limited", async () => {
  const owner = await signedInUser();
  const folder = (
    await call('POST', '/api/user/folders', {
      token: owner.token,
      json: { name: 'Full', allowUploads: true },
    })
  ).body;
  await updateUserQuota(owner.id, { filesQuota: 'BY_FILES', maxFiles: 1, maxBytes: null });
  expect((await anonymousUpload(folder.id, nextAddress())).status).toBe(200);
  expect((await anonymousUpload(folder.id, nextAddress())).status).toBe(413);
  await updateUserQuota(owner.id, { filesQuota: 'BY_FILES', maxFiles: 1000, maxBytes: null });
  const ip = nextAddress();
  for (let sent = 0; sent < OPEN_UPLOADS_PER_ADDRESS; sent++) {
    expect((await anonymousUpload(folder.id, ip)).status).toBe(200);
  }
  const throttled = await anonymousUpload(folder.id, ip);
  expect(throttled.status).toBe(429);
  expect((await anonymousUpload(folder.id, nextAddress())).status).toBe(200);
  expect(await getItem(fileStatsKey(owner.id), { consistent: true })).toMatchObject({
    files: OPEN_UPLOADS_PER_ADDRESS + 2,
  });
});

test('/folder/{id}: the public folder page lists its files without script, only while the folder is public', async () => {
  const [owner, other] = await Promise.all([signedInUser(), signedInUser()]);
  const folder = (
    await call('POST', '/api/user/folders', { token: owner.token, json: { name: 'Shots <&>' } })
  ).body;
  const part = multipart([{ fileName: 'shot.png', type: 'image/png', content: 'png bytes' }]);
  const sent = await call('POST', '/api/upload', {
    token: owner.token,
    raw: part.body,
    headers: { 'content-type': part.contentType, 'x-zipline-folder': folder.id },
  });
  const browser = { headers: { accept: 'text/html' } };
  const closed = await call('GET', `/folder/${folder.id}`, browser);
  expect(closed.status).toBe(404);
  expect((await call('GET', `/folder/${folder.id}`)).body).toEqual({
    error: 'folder not found',
    statusCode: 404,
  });
  await call('PATCH', `/api/user/folders/${folder.id}`, { token: owner.token, json: { isPublic: true } });
  const page = await call('GET', `/folder/${folder.id}`, browser);
  expect(page.status).toBe(200);
  expect(page.text).toContain('<h1>Shots &lt;&amp;&gt;</h1>');
  expect(page.text).toContain(`href="/u/${sent.body.files[0].name}"`);
  expect(page.text).not.toContain('<script');
  expect(page.headers['content-security-policy']).toContain("default-src 'none'");
  expect(page.headers['content-security-policy']).not.toContain('script-src');
  // The same 404 for an unknown id, a malformed one, and as soon as it is private again.
  expect(closed.text).toBe((await call('GET', '/folder/01arz3ndektsv4rrffq69g5fav', browser)).text);
  expect((await call('GET', '/folder/nope', browser)).text).toBe(closed.text);
  expect((await call('GET', `/folder/${folder.id}`, { ...browser, token: other.token })).status).toBe(200);
  await call('PATCH', `/api/user/folders/${folder.id}`, { token: owner.token, json: { isPublic: false } });
  expect((await call('GET', `/folder/${folder.id}`, browser)).status).toBe(404);
});
