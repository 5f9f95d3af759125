import { verifyPassword } from '#shared/auth/password';
import { type OpenedSession, openSession } from '#shared/auth/session';
import { config } from '#shared/config';
import { foldUsername } from '#shared/db/username-forms';
import { invalid, ServiceError } from '#shared/errors';
import { addressSubject } from '#shared/throttle/address';
import { countAttempt, type Limit, refundAttempt, resetCounter } from '#shared/throttle/counter';
import type { UserRecord } from '#shared/users/model';
import { findUserByUsername } from '#shared/users/store';

export const INVALID_CREDENTIALS = 'invalid username or password';
export const WRONG_CURRENT_PASSWORD = 'currentPassword is not the current password';

/** Password guesses for one account, whether at login or as a password change's current password. */
const usernameLimit = (username: string): Limit => ({
  scope: 'login-username',
  subject: foldUsername(username),
  max: config().throttle.loginPerUsername,
});

export type LoggedIn = OpenedSession;

/**
 * Checks the credentials and opens a session. Unknown user and wrong password look the same.
 * Every attempt is counted against the client address and the username before any bcrypt work, so a
 * throttled attempt (429) costs one conditional write and no hashing; a good login clears the
 * username's count and gives the address its attempt back, so only failures add up.
 */
export async function login(username: string, password: string, sourceIp: string): Promise<LoggedIn> {
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
  await Promise.all([resetCounter(byUsername), refundAttempt(byAddress)]);
  return openSession(user);
}

/**
 * Checks a password change's `currentPassword`. Each check is a guess at the password, so it counts
 * against the username's login limit (429 past it) before the bcrypt work, right or wrong.
 */
export async function confirmCurrentPassword(user: UserRecord, password: string): Promise<void> {
  await countAttempt(usernameLimit(user.username));
  if (!(await verifyPassword(password, user.passwordHash))) throw invalid(WRONG_CURRENT_PASSWORD);
}
