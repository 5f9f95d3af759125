import { addressLimit, countGuess, usernameLimit } from '#shared/auth/guesses';
import { type OpenedSession, openSession, type SignInMethod } from '#shared/auth/session';
import { invalid, ServiceError } from '#shared/errors';
import { disableTotp, INVALID_CODE, TOTP_NOT_ON, useSecondFactor } from '#shared/mfa/totp';
import { type Attempt, countAttempt, refundAttempt, resetCounter } from '#shared/throttle/counter';
import { isTotpEnabled, type UserRecord } from '#shared/users/model';
import { getUser } from '#shared/users/store';

export type LoggedIn = OpenedSession;

/** The password was right, and the account has TOTP on: the client asks for the code and tries again. */
export const CODE_REQUIRED = 'code required';
export const SIGN_IN_EXPIRED = 'the sign-in expired or was not started: sign in again';

/**
 * The one second-factor step of every sign-in that asks for it (the password login, a provider
 * sign-in's pending code): with TOTP on, a code (or recovery code) that is right and unused; then
 * the sign-in's counters are cleared and the session opened. Without bcrypt, so the code's route
 * does not carry it.
 */
export async function secondFactor(
  user: UserRecord,
  code: string | null | undefined,
  [byAddress, byUsername]: [Attempt, Attempt],
  method: SignInMethod,
  userAgent: string | undefined,
): Promise<LoggedIn | typeof CODE_REQUIRED> {
  if (isTotpEnabled(user)) {
    // `null`, and an empty field, mean no code.
    if (code === undefined || code === null || code.trim() === '') return CODE_REQUIRED;
    if (!(await useSecondFactor(user, code))) throw new ServiceError('unauthenticated', INVALID_CODE);
  }
  await Promise.all([resetCounter(byUsername), refundAttempt(byAddress)]);
  return openSession(user, method, userAgent);
}

/**
 * The end of a provider sign-in that waited for the code (`POST /api/auth/totp`,
 * auth/pending-sign-in.ts): counted per address and per username as a login is, the same check.
 */
export async function loginWithCode(
  userId: string,
  sourceIp: string,
  code: string,
  userAgent: string | undefined,
): Promise<LoggedIn> {
  const byAddress = await countAttempt(addressLimit(sourceIp));
  const found = await getUser(userId, { consistent: true });
  if (!found || found.deletingAt !== undefined) throw new ServiceError('unauthenticated', SIGN_IN_EXPIRED);
  const byUsername = await countAttempt(usernameLimit(found.username));
  const session = await secondFactor(found, code, [byAddress, byUsername], 'provider', userAgent);
  if (session === CODE_REQUIRED) throw new ServiceError('unauthenticated', INVALID_CODE);
  return session;
}

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
