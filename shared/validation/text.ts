import type * as v from 'valibot';

/** The rules every schema shares: one place for each, so two inputs never disagree. */

/** No control or format characters (newlines, NUL, bidi overrides, zero-width joiners). */
export const NO_CONTROL_CHARACTERS = /^[^\p{Cc}\p{Cf}]*$/u;

/** bcrypt reads at most 72 bytes: a longer password would be silently cut, so it is refused. */
export const MAX_PASSWORD_BYTES = 72;

/** For strict objects: an unknown key reads "<key>: unknown property", a non-object "must be an object". */
export const strictMessage = (issue: v.BaseIssue<unknown>) =>
  issue.expected === 'never' ? 'unknown property' : 'must be a JSON object';
