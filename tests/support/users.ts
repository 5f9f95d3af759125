import { hashPassword } from '#shared/auth/password';
import { createUser } from '#shared/users/creation';
import type { Role } from '#shared/users/model';
import { call, cookieValue, uniqueName } from './client.ts';

export const PASSWORD = 'correct horse battery';

/** Exactly the fields of the contract's User resource, sorted. */
export const USER_RESOURCE_FIELDS = [
  'createdAt',
  'id',
  'oauthProviders',
  'passkeys',
  'quota',
  'role',
  'sessions',
  'totpSecret',
  'updatedAt',
  'username',
  'view',
];

/** A user written straight through the store (fixture), then logged in through the API. */
export async function signedInUser(role: Role = 'USER', password = PASSWORD) {
  const username = uniqueName(role.toLowerCase());
  const user = await createUser({ username, passwordHash: await hashPassword(password), role });
  const login = await call('POST', '/api/auth/login', { json: { username, password } });
  if (login.status !== 200) throw new Error(`login failed: ${login.text}`);
  const cookie = cookieValue(login.cookies[0]);
  const tokenResponse = await call('GET', '/api/user/token', { cookie });
  return { id: user.id, username, password, cookie, token: tokenResponse.body.token as string };
}
