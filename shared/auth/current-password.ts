import { countGuess } from '#shared/auth/guesses';
import { verifyPassword } from '#shared/auth/password';
import { invalid } from '#shared/errors';
import type { UserRecord } from '#shared/users/model';

export const WRONG_CURRENT_PASSWORD = 'currentPassword is not the current password';

/**
 * Checks a password change's `currentPassword`. Each check is a guess at the password, so it counts
 * against the username's login limit (429 past it) before the bcrypt work, right or wrong.
 */
export async function confirmCurrentPassword(user: UserRecord, password: string): Promise<void> {
  await countGuess(user.username);
  if (!(await verifyPassword(password, user.passwordHash))) throw invalid(WRONG_CURRENT_PASSWORD);
}
