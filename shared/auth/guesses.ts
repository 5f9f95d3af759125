import { verifyPassword } from '#shared/auth/password';
import { config } from '#shared/config';
import { foldUsername } from '#shared/db/username-forms';
import { invalid } from '#shared/errors';
import { countAttempt, type Limit } from '#shared/throttle/counter';
import type { UserRecord } from '#shared/users/model';

export const WRONG_CURRENT_PASSWORD = 'currentPassword is not the current password';

/**
 * Guesses at one account's secrets: passwords at login or as a password change's current password,
 * and TOTP codes at login or to turn TOTP off. They share one counter per username, so guessing one
 * factor cannot go on under another's limit.
 */
export const usernameLimit = (username: string): Limit => ({
  scope: 'login-username',
  subject: foldUsername(username),
  max: config().throttle.loginPerUsername,
});

/** Counts a guess at an account's secrets before it is checked (429 past the limit). */
export const countGuess = (username: string) => countAttempt(usernameLimit(username));

/**
 * Checks a password change's `currentPassword`. Each check is a guess at the password, so it counts
 * against the username's login limit (429 past it) before the bcrypt work, right or wrong.
 */
export async function confirmCurrentPassword(user: UserRecord, password: string): Promise<void> {
  await countGuess(user.username);
  if (!(await verifyPassword(password, user.passwordHash))) throw invalid(WRONG_CURRENT_PASSWORD);
}
