import ms from 'ms';
import * as v from 'valibot';
import type { IdFormat } from '#shared/validation/ids';
import { strictMessage } from '#shared/validation/text';
import { passwordSchema, usernameSchema } from '#shared/validation/users/account';

/** Invites and registration (issue 38): the bodies of `POST /api/auth/invites` and `/register`. */

const MAX_LIFETIME_MS = 10 * 365.25 * 86_400_000;
const EXPIRY_MESSAGE =
  'must be "never", a lifetime such as "7d" or "2 weeks", or a date ahead (ISO 8601), at most 10 years ahead';

/** `never`, a lifetime (`ms`), or an ISO 8601 date (`date=` prefix allowed, as upload headers take). */
function expiryOf(text: string, now: number): string | null | undefined {
  const value = text.trim();
  if (value.toLowerCase() === 'never') return null;
  let at: number;
  if (/^(date=)?\d{4}-\d{2}-\d{2}/i.test(value)) {
    at = Date.parse(value.replace(/^date=/i, ''));
  } else {
    let lifetime: number | undefined;
    try {
      lifetime = ms(value as ms.StringValue);
    } catch {
      return undefined;
    }
    at = typeof lifetime === 'number' ? now + lifetime : Number.NaN;
  }
  if (!Number.isFinite(at) || at <= now || at > now + MAX_LIFETIME_MS) return undefined;
  return new Date(at).toISOString();
}

export const createInviteSchema = v.strictObject(
  {
    expiresAt: v.pipe(
      v.string(EXPIRY_MESSAGE),
      v.maxLength(64, EXPIRY_MESSAGE),
      v.rawTransform(({ dataset, addIssue, NEVER }) => {
        const at = expiryOf(dataset.value, Date.now());
        if (at !== undefined) return at;
        addIssue({ message: EXPIRY_MESSAGE });
        return NEVER;
      }),
    ),
    maxUses: v.optional(
      v.nullable(
        v.pipe(
          v.number('must be a number or null'),
          v.safeInteger('must be a whole number'),
          v.minValue(1, 'must be at least 1'),
          v.maxValue(1_000_000, 'must be at most 1000000'),
        ),
      ),
      null,
    ),
  },
  strictMessage,
);

/** An invite code as `createInvite` draws them (and Zipline's, for imported ones). */
const INVITE_CODE = /^[A-Za-z0-9_-]{1,64}$/;

export const registerSchema = v.strictObject(
  {
    username: usernameSchema,
    password: passwordSchema,
    code: v.optional(
      v.nullable(v.pipe(v.string('must be a string'), v.regex(INVITE_CODE, 'is not an invite code'))),
    ),
  },
  strictMessage,
);

/** `/api/auth/invites/{id}`: an invite's id (a UUID) or its code. */
export const INVITE_ID: IdFormat = {
  accepts: (value) => INVITE_CODE.test(value),
  notFound: 'invite not found',
};
