import type { Caller } from '#shared/auth/authenticate';
import { countGuess } from '#shared/auth/guesses';
import { verifyPassword } from '#shared/auth/password';
import { invalid } from '#shared/errors';
import { INVALID_CODE, useSecondFactor } from '#shared/mfa/totp';
import { isTotpEnabled, type UserRecord } from '#shared/users/model';

export const WRONG_CURRENT_PASSWORD = 'currentPassword is not the current password';
export const PROOF_REQUIRED =
  'this session was not made with the password and the account has TOTP on: give currentPassword or a code (TOTP or recovery) to change the password';

/**
 * Checks a password change's `currentPassword`. Each check is a guess at the password, so it counts
 * against the username's login limit (429 past it) before the bcrypt work, right or wrong.
 */
export async function confirmCurrentPassword(user: UserRecord, password: string): Promise<void> {
  await countGuess(user.username);
  if (!(await verifyPassword(password, user.passwordHash))) throw invalid(WRONG_CURRENT_PASSWORD);
}

/**
 * What a password change (`PATCH /api/user`, from a session: auth/authenticate.ts `requireSession`)
 * proves beyond the session. `currentPassword` is checked whenever given. An account with TOTP on
 * whose session the password login did not make (a provider, a passkey, a cookie from before sessions
 * recorded how they were made) also needs `currentPassword` or a code (TOTP or recovery, used up as
 * at login, counted as a guess): two factors guard the account, and whatever made the session must
 * not replace both.
 */
export async function confirmPasswordChange(
  caller: Caller,
  proof: { currentPassword?: string | undefined; code?: string | undefined },
): Promise<void> {
  const { user } = caller;
  if (proof.currentPassword !== undefined) return confirmCurrentPassword(user, proof.currentPassword);
  if (!isTotpEnabled(user) || caller.signedInWith === 'password') return;
  if (proof.code === undefined) throw invalid(PROOF_REQUIRED);
  await countGuess(user.username);
  if (!(await useSecondFactor(user, proof.code))) throw invalid(INVALID_CODE);
}
