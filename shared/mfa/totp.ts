import { invalid, ServiceError } from '#shared/errors';
import {
  newRecoveryCodes,
  normalizeRecoveryCode,
  RECOVERY_CODE,
  recoveryCodeHash,
} from '#shared/mfa/recovery-codes';
import { isOfferedSecret, openTotpSecret, sealTotpSecret } from '#shared/mfa/sealing';
import { matchingStep, TOTP_CODE } from '#shared/mfa/totp-code';
import {
  consumeProof,
  removeTotpWithProof,
  type SecondFactorProof,
  writeEnrolment,
} from '#shared/mfa/totp-store';
import { isTotpEnabled, type UserRecord } from '#shared/users/model';

/**
 * TOTP for one user (the enrolment offer is offer.ts): turning it on with a first code, checking (and using up) a
 * code or recovery code, turning it off. Every code that is not accepted, whatever the reason (wrong,
 * replayed, older than the last one used, a used or unknown recovery code, a secret that no longer
 * opens), is the same `invalid code`.
 */
export const INVALID_CODE = 'invalid code';
export const TOTP_ALREADY_ON = 'TOTP is already enabled';
export const TOTP_NOT_ON = 'TOTP is not enabled';
export const SECRET_NOT_OFFERED = 'secret is not the one GET /api/user/mfa/totp offered';

export interface Enabled {
  user: UserRecord;
  /** Shown this once; only their hashes are stored. */
  recoveryCodes: string[];
}

/**
 * Turns TOTP on with the secret the offer gave and a code from the app that scanned it (proof the
 * app has it). The code is used up; the recovery codes replace any earlier ones.
 */
export async function enableTotp(
  user: UserRecord,
  input: { secret: string; code: string },
  now = Date.now(),
): Promise<Enabled> {
  if (isTotpEnabled(user)) throw new ServiceError('conflict', TOTP_ALREADY_ON);
  const enrolments = user.totpEnrolments ?? 0;
  const secret = input.secret.toUpperCase().replace(/=+$/, '');
  if (!(await isOfferedSecret(user.id, enrolments, secret))) throw invalid(SECRET_NOT_OFFERED);
  const step = matchingStep(secret, input.code.replace(/\s/g, ''), now);
  if (step === undefined) throw invalid(INVALID_CODE);
  const recoveryCodes = newRecoveryCodes();
  const written = await writeEnrolment(user.id, {
    sealedSecret: await sealTotpSecret(user.id, secret),
    recoveryHashes: Object.fromEntries(recoveryCodes.map((code) => [recoveryCodeHash(user.id, code), 1])),
    step,
    enrolments,
  });
  // Another request turned TOTP on (or off and on) since this one read the user.
  if (!written) throw new ServiceError('conflict', 'TOTP was changed by another request, try again');
  return { user: written, recoveryCodes };
}

interface CheckedProof {
  sealedSecret: string;
  proof: SecondFactorProof;
  /** The secret sealed under the current key, when it was sealed under an older one. */
  resealedSecret?: string;
}

/** What a typed code proves, checked against the user as read; undefined when it proves nothing. */
async function checkProof(user: UserRecord, typed: string, now: number): Promise<CheckedProof | undefined> {
  const sealedSecret = user.totpSecret;
  if (!sealedSecret) return undefined;
  const code = typed.replace(/\s/g, '');
  if (TOTP_CODE.test(code)) {
    const opened = await openTotpSecret(user.id, sealedSecret);
    if (!opened) return undefined;
    const step = matchingStep(opened.secretBase32, code, now);
    if (step === undefined) return undefined;
    const resealedSecret = opened.underCurrentKey
      ? undefined
      : await sealTotpSecret(user.id, opened.secretBase32);
    return { sealedSecret, proof: { kind: 'code', step }, ...(resealedSecret ? { resealedSecret } : {}) };
  }
  const recovery = normalizeRecoveryCode(typed);
  if (!RECOVERY_CODE.test(recovery)) return undefined;
  const hash = recoveryCodeHash(user.id, recovery);
  if (user.totpRecovery?.[hash] === undefined) return undefined;
  return { sealedSecret, proof: { kind: 'recovery', hash } };
}

/**
 * Checks a login's code (or recovery code) and uses it up in one conditional write: true only for the
 * first request that presents it. A code re-seals a secret found under an older key.
 */
export async function useSecondFactor(user: UserRecord, typed: string, now = Date.now()): Promise<boolean> {
  const checked = await checkProof(user, typed, now);
  if (!checked) return false;
  return consumeProof(user.id, checked.sealedSecret, checked.proof, checked.resealedSecret);
}

/** Turns TOTP off with a code or recovery code; undefined when the code is not accepted (or TOTP is off). */
export async function disableTotp(
  user: UserRecord,
  typed: string,
  now = Date.now(),
): Promise<UserRecord | undefined> {
  const checked = await checkProof(user, typed, now);
  if (!checked) return undefined;
  return removeTotpWithProof(user.id, checked.sealedSecret, checked.proof);
}
