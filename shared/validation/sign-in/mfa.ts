import * as v from 'valibot';
import { strictMessage } from '#shared/validation/text';

/** A TOTP code or a recovery code as typed; which one it is, and whether it is right, the check decides. */
export const codeSchema = v.pipe(
  v.string('code must be a string'),
  v.minLength(1, 'code must not be empty'),
  v.maxLength(32, 'code is too long'),
);

/** The base32 secret the offer gave (any case, `=` padding tolerated). */
const secretSchema = v.pipe(
  v.string('secret must be a string'),
  v.regex(/^[A-Za-z2-7]{16,128}=*$/, 'secret must be the base32 secret GET /api/user/mfa/totp offered'),
);

export const enableTotpSchema = v.strictObject({ code: codeSchema, secret: secretSchema }, strictMessage);

/** `{code}`: to turn TOTP off, and the code a provider sign-in still owes (`POST /api/auth/totp`). */
export const codeBodySchema = v.strictObject({ code: codeSchema }, strictMessage);
