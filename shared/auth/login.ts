import { addressLimit, usernameLimit } from '#shared/auth/guesses';
import { verifyPassword } from '#shared/auth/password';
import { type CODE_REQUIRED, type LoggedIn, secondFactor } from '#shared/auth/second-factor';
import { ServiceError } from '#shared/errors';
import { countAttempt } from '#shared/throttle/counter';
import { findUserByUsername } from '#shared/users/store';

export const INVALID_CREDENTIALS = 'invalid username or password';

/**
 * Checks the credentials and opens a session. Unknown user and wrong password look the same.
 * Every attempt is counted against the client address and the username before any bcrypt work, so a
 * throttled attempt (429) costs one conditional write and no hashing; a good login clears the
 * username's count and gives the address its attempt back, so only failures add up.
 *
 * With TOTP on, the login is good only with a code (or recovery code) that is right and not used
 * before; until then the attempt stays counted, so code guesses count as password guesses do, and
 * asking for the code (no `code`) does not clear the count either.
 */
export async function login(
  username: string,
  password: string,
  sourceIp: string,
  code: string | null | undefined,
  userAgent: string | undefined,
): Promise<LoggedIn | typeof CODE_REQUIRED> {
  const name = username.trim();
  const byAddress = await countAttempt(addressLimit(sourceIp));
  const byUsername = await countAttempt(usernameLimit(name));
  const found = await findUserByUsername(name);
  // A user being deleted cannot sign in; it costs the same bcrypt work as an unknown one.
  const user = found?.deletingAt === undefined ? found : undefined;
  const valid = await verifyPassword(password, user?.passwordHash);
  if (!user || !valid) throw new ServiceError('unauthenticated', INVALID_CREDENTIALS);
  return secondFactor(user, code, [byAddress, byUsername], 'password', userAgent);
}
