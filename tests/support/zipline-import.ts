import { randomBytes } from 'node:crypto';
import { call, cookieValue } from './client.ts';
import { multipart } from './multipart.ts';
import { PNG_1X1 } from './pixels.ts';
import { headForbidden, injectS3Fault } from './s3-calls.ts';
import { signedInUser } from './users.ts';

/** Helpers of the Zipline import tests (issue 40): a SUPERADMIN session, ids, imported users. */

export type Admin = Awaited<ReturnType<typeof signedInUser>>;

/** A fresh Zipline id (a cuid's shape: `c` and 24 lower-case letters and digits). */
export const ziplineId = () => `c${randomBytes(12).toString('hex')}`;

export const importPut = (admin: Admin, kind: string, id: string, json: unknown) =>
  call('PUT', `/api/import/zipline/${kind}/${id}`, { cookie: admin.cookie, json });

/** Imports a Zipline user (201) and answers its Zipline id and our id. */
export async function importedUser(admin: Admin, fields: Record<string, unknown> = {}) {
  const zid = ziplineId();
  const username = `zl-${randomBytes(5).toString('hex')}`;
  const answer = await importPut(admin, 'users', zid, { username, role: 'USER', ...fields });
  if (answer.status !== 201) throw new Error(`user import: ${answer.status} ${answer.text}`);
  return { zid, id: answer.body.id as string, username };
}

/**
 * Signs in as an imported user once an administrator has set its password (the documented way in:
 * docs/migrate-from-zipline.md): the session cookie and the API token.
 */
export async function signInImported(admin: Admin, user: { id: string; username: string }) {
  const password = 'imported account password';
  const patched = await call('PATCH', `/api/users/${user.id}`, { cookie: admin.cookie, json: { password } });
  if (patched.status !== 200) throw new Error(`password: ${patched.status} ${patched.text}`);
  const login = await call('POST', '/api/auth/login', { json: { username: user.username, password } });
  if (login.status !== 200) throw new Error(`login: ${login.status} ${login.text}`);
  const cookie = cookieValue(login.cookies[0]);
  const token = (await call('GET', '/api/user/token', { cookie })).body.token as string;
  return { cookie, token };
}

type Send = (method: string, url: string, options?: Parameters<typeof call>[2]) => ReturnType<typeof call>;

/**
 * Every path of the import routes once, for tests/infra/grants.test.ts (each AWS request is checked
 * against its function's grant, and each grant must be used): `send` is its recording request.
 */
export async function importFlow(send: Send) {
  const superadmin = await signedInUser('SUPERADMIN');
  const session = { cookie: superadmin.cookie };
  const put = (kind: string, id: string, json: unknown) =>
    send('PUT', `/api/import/zipline/${kind}/${id}`, { ...session, json });
  const expectStatus = async (answer: ReturnType<typeof call>, status: number) => {
    const got = await answer;
    if (got.status !== status) throw new Error(`${status} expected: ${got.status} ${got.text}`);
    return got;
  };
  const avatar = `data:image/png;base64,${PNG_1X1.toString('base64')}`;
  const owner = ziplineId();
  // A name whose folded form differs from its lowercase one (its legacy claim is checked), an avatar.
  const username = `Straße-${randomBytes(4).toString('hex')}`;
  await expectStatus(put('users', owner, { username, role: 'USER', avatar }), 201);
  await expectStatus(put('users', owner, { username, role: 'USER' }), 200);
  await expectStatus(put('users', ziplineId(), { username, role: 'USER', adoptExisting: true }), 201);
  const folder = ziplineId();
  await expectStatus(put('folders', folder, { owner, name: 'f' }), 201);
  const tag = ziplineId();
  await expectStatus(put('tags', tag, { owner, name: 't', color: '#fff' }), 201);
  const url = {
    owner,
    code: `g${randomBytes(4).toString('hex')}`,
    destination: 'https://example.com',
    views: 2,
  };
  await expectStatus(put('urls', ziplineId(), url), 201);
  // A file: started twice (the first upload dropped), completed before its bytes (400), then done.
  const file = ziplineId();
  const name = `grants-${randomBytes(4).toString('hex')}.txt`;
  const body = { owner, name, type: 'text/plain', size: 5, folder, tags: [tag], password: true };
  await expectStatus(put('files', file, body), 202);
  const started = await expectStatus(put('files', file, body), 202);
  const complete = (id: string) =>
    send('POST', `/api/import/zipline/files/${id}/complete`, { ...session, json: { owner } });
  // Nothing PUT yet, and S3 answers the HEAD with 403 as AWS does without a bucket-wide listing.
  const forbidden = injectS3Fault('HeadObjectCommand', headForbidden);
  try {
    await expectStatus(complete(file), 400);
  } finally {
    forbidden.stop();
  }
  const { url: target, headers } = started.body.upload;
  await fetch(target, { method: 'PUT', body: 'hello', headers });
  await expectStatus(complete(file), 201);
  // A name taken between the start and the completion: 409, the upload dropped.
  const late = ziplineId();
  const lateName = `grants-${randomBytes(4).toString('hex')}.txt`;
  const lateStart = await expectStatus(put('files', late, { ...body, name: lateName, tags: [] }), 202);
  await fetch(lateStart.body.upload.url, {
    method: 'PUT',
    body: 'hello',
    headers: lateStart.body.upload.headers,
  });
  const taken = multipart([{ fileName: 'x.txt', content: 'mine' }]);
  const uploaded = await call('POST', '/api/upload', {
    token: superadmin.token,
    raw: taken.body,
    headers: { 'content-type': taken.contentType, 'x-zipline-filename': lateName },
  });
  if (uploaded.status !== 200) throw new Error(`upload: ${uploaded.text}`);
  await expectStatus(complete(late), 409);
  // Four files pending for one owner; the fifth looks for expired reservations to reclaim: 429.
  for (let index = 0; index < 4; index++)
    await expectStatus(
      put('files', ziplineId(), { owner, name: `${index}${lateName}`, type: 'text/plain', size: 1 }),
      202,
    );
  await expectStatus(
    put('files', ziplineId(), { owner, name: `5${lateName}`, type: 'text/plain', size: 1 }),
    429,
  );
  await expectStatus(send('GET', '/api/import/zipline/status', session), 200);
}
