import { usernameLimit } from '#shared/auth/guesses';
import { verifyPassword } from '#shared/auth/password';
import { type OpenedSession, openSession } from '#shared/auth/session';
import { config } from '#shared/config';
import { ServiceError } from '#shared/errors';
import { INVALID_CODE, useSecondFactor } from '#shared/mfa/totp';
import { addressSubject } from '#shared/throttle/address';
import { countAttempt, refundAttempt, resetCounter } from '#shared/throttle/counter';
import { isTotpEnabled } from '#shared/users/model';
import { findUserByUsername } from '#shared/users/store';

export const INVALID_CREDENTIALS = 'invalid username or password';

export type LoggedIn = OpenedSession;

/** The password was right, and the account has TOTP on: the client asks for the code and tries again. */
export const CODE_REQUIRED = 'code required';

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
  code?: string | null,
): Promise<LoggedIn | typeof CODE_REQUIRED> {
  const limits = config().throttle;
  const name = username.trim();
  const byAddress = await countAttempt({
    scope: 'login-address',
    subject: addressSubject(sourceIp),
    max: limits.loginPerAddress,
  });
  const byUsername = await countAttempt(usernameLimit(name));
  const found = await findUserByUsername(name);
  // A user being deleted cannot sign in; it costs the same bcrypt work as an unknown one.
  const user = found?.deletingAt === undefined ? found : undefined;
  const valid = await verifyPassword(password, user?.passwordHash);
  if (!user || !valid) throw new ServiceError('unauthenticated', INVALID_CREDENTIALS);
  if (isTotpEnabled(user)) {
    // `null`, and an empty field, mean no code.
    if (code === undefined || code === null || code.trim() === '') return CODE_REQUIRED;
    if (!(await useSecondFactor(user, code))) throw new ServiceError('unauthenticated', INVALID_CODE);
  }
  await Promise.all([resetCounter(byUsername), refundAttempt(byAddress)]);
  return openSession(user);
}
