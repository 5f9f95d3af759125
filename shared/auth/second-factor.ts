import { countGuess } from '#shared/auth/guesses';
import { invalid, ServiceError } from '#shared/errors';
import { disableTotp, INVALID_CODE, TOTP_NOT_ON } from '#shared/mfa/totp';
import { isTotpEnabled, type UserRecord } from '#shared/users/model';

/**
 * `DELETE /api/user/mfa/totp`: a code (or recovery code) turns TOTP off. Each try is a guess at the
 * second factor and counts against the username's login limit before it is checked, so a stolen
 * session cannot guess its way past TOTP here either. A wrong code is 400 (the caller is signed in;
 * 401 would read as a lost session).
 */
export async function turnOffTotp(user: UserRecord, code: string): Promise<UserRecord> {
  if (!isTotpEnabled(user)) throw new ServiceError('conflict', TOTP_NOT_ON);
  await countGuess(user.username);
  const updated = await disableTotp(user, code);
  if (!updated) throw invalid(INVALID_CODE);
  return updated;
}
