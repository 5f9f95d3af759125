import { Secret, TOTP } from 'otpauth';

/**
 * RFC 6238 as authenticator apps implement it: HMAC-SHA1, 6 digits, 30-second steps, and a code of
 * the step before or after the server's accepted too (clock drift, a code typed as it changed).
 */
const TOTP_PARAMETERS = { algorithm: 'SHA1', digits: 6, period: 30 } as const;
export const TOTP_PERIOD_SECONDS = TOTP_PARAMETERS.period;
/** Steps either side of the current one that are still accepted. */
export const TOTP_WINDOW = 1;
/** 160 bits, the secret length RFC 4226 recommends (32 base32 characters). */
export const TOTP_SECRET_BYTES = 20;

/** A TOTP code as typed: six digits (spaces, as some apps group them `123 456`, are dropped first). */
export const TOTP_CODE = /^[0-9]{6}$/;

const totp = (secretBase32: string, label?: { issuer: string; account: string }) =>
  new TOTP({
    ...TOTP_PARAMETERS,
    secret: Secret.fromBase32(secretBase32),
    ...(label ? { issuer: label.issuer, label: label.account } : {}),
  });

/** The time step a moment falls in. */
export const stepAt = (timestampMs: number): number => Math.floor(timestampMs / 1000 / TOTP_PERIOD_SECONDS);

/** The base32 form of a secret's bytes. */
export const toBase32 = (bytes: Uint8Array): string =>
  new Secret({ buffer: new Uint8Array(bytes).buffer }).base32;

/**
 * The time step `code` was generated for, when it is the code of the step at `timestampMs` or of one
 * within the window around it; undefined for any other code (compared in constant time by otpauth).
 */
export function matchingStep(secretBase32: string, code: string, timestampMs: number): number | undefined {
  if (!TOTP_CODE.test(code)) return undefined;
  const delta = totp(secretBase32).validate({ token: code, timestamp: timestampMs, window: TOTP_WINDOW });
  return delta === null ? undefined : stepAt(timestampMs) + delta;
}

/** The `otpauth://totp/...` URI authenticator apps scan. */
export function totpUri(secretBase32: string, issuer: string, account: string): string {
  return totp(secretBase32, { issuer, account }).toString();
}
