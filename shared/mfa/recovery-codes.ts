import { createHash, randomBytes } from 'node:crypto';
import { toBase32 } from '#shared/mfa/totp-code';

/**
 * Recovery codes: ten per enrolment, each 80 random bits written as 16 base32 characters in groups
 * of four (`abcd-efgh-ijkl-mnop`). Only their SHA-256 is stored (with the user id, so equal codes of
 * two users would not show as equal hashes); at 80 bits a fast hash is enough: a stolen table cannot
 * be brute-forced back to a code.
 */
export const RECOVERY_CODE_COUNT = 10;
const RECOVERY_CODE_BYTES = 10;

/** What a typed recovery code is reduced to: lowercase, without the hyphens and spaces. */
export const normalizeRecoveryCode = (typed: string): string => typed.replace(/[\s-]/g, '').toLowerCase();

/** A typed code that could be a recovery code (the shape alone; whether it is one, only its hash tells). */
export const RECOVERY_CODE = /^[a-z2-7]{16}$/;

export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () =>
    (toBase32(randomBytes(RECOVERY_CODE_BYTES)).toLowerCase().match(/.{4}/g) as string[]).join('-'),
  );
}

export function recoveryCodeHash(userId: string, code: string): string {
  return createHash('sha256')
    .update(`${userId}\0${normalizeRecoveryCode(code)}`)
    .digest('base64url');
}
