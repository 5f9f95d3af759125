import { randomBytes } from 'node:crypto';
import { call, cookieValue } from './client.ts';
import type { signedInUser } from './users.ts';

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
