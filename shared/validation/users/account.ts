import * as v from 'valibot';
import { foldUsername } from '#shared/db/username-forms';
import { codeSchema } from '#shared/validation/sign-in/mfa';
import { MAX_PASSWORD_BYTES, NO_CONTROL_CHARACTERS, strictMessage } from '#shared/validation/text';
import { isSingleScript } from '#shared/validation/users/scripts';

/** An avatar as sent: base64 of at most 1 MiB, with room for a `data:` prefix. */
const AVATAR_INPUT_CHARACTERS = 1_500_000;
/** The body limit of the routes that take an avatar: the avatar plus the other properties. */
export const AVATAR_BODY_LIMIT = AVATAR_INPUT_CHARACTERS + 64 * 1024;

export const usernameSchema = v.pipe(
  v.string('username must be a string'),
  v.trim(),
  v.minLength(1, 'username must not be empty'),
  v.maxLength(64, 'username must be at most 64 characters'),
  v.regex(NO_CONTROL_CHARACTERS, 'username must not contain control characters'),
  v.check(
    isSingleScript,
    'username mixes scripts: use the letters of one script (Han with kana, Bopomofo or Hangul, and Latin with those, may mix)',
  ),
  // NFKC can lengthen a name many times over (ﷺ is 18 letters): its claim key must stay small.
  v.check((value) => Buffer.byteLength(foldUsername(value)) <= 512, 'username is too long once normalised'),
);

export const passwordSchema = v.pipe(
  v.string('password must be a string'),
  v.check((value) => Buffer.byteLength(value) >= 8, 'password must be at least 8 bytes'),
  v.check(
    (value) => Buffer.byteLength(value) <= MAX_PASSWORD_BYTES,
    `password must be at most ${MAX_PASSWORD_BYTES} bytes`,
  ),
);

/** The avatar as sent (base64 or data URL); its content is checked by `decodeAvatar`. */
export const avatarInputSchema = v.nullable(
  v.pipe(
    v.string('avatar must be a base64 string or null'),
    v.maxLength(AVATAR_INPUT_CHARACTERS, 'avatar is too large'),
  ),
);

const boundedText = v.pipe(v.string(), v.maxLength(2000, 'must be at most 2000 characters'));
const optionalNullable = <T extends v.GenericSchema>(schema: T) => v.optional(v.nullable(schema));

export const viewSchema = v.strictObject(
  {
    enabled: optionalNullable(v.boolean()),
    align: optionalNullable(v.picklist(['left', 'center', 'right'])),
    showMimetype: optionalNullable(v.boolean()),
    // Zipline 4.4's view page shows the file's tags and folder (issue 33): stored and returned like
    // the other flags; the page here shows neither until tags and folders exist.
    showTags: optionalNullable(v.boolean()),
    showFolder: optionalNullable(v.boolean()),
    // Markdown files' pages load images from other sites (https) only where the owner turns this on
    // (issue 37): a remote image tells its host who looked at the page, and when.
    remoteImages: optionalNullable(v.boolean()),
    content: optionalNullable(boundedText),
    embed: optionalNullable(v.boolean()),
    embedTitle: optionalNullable(boundedText),
    embedDescription: optionalNullable(boundedText),
    embedColor: optionalNullable(
      v.pipe(v.string(), v.regex(/^#[0-9a-fA-F]{6}$/, 'must be a #rrggbb colour')),
    ),
    embedSiteName: optionalNullable(boundedText),
    // This service's (issue 38): the view pages may be indexed by search engines (no X-Robots-Tag).
    allowIndexing: optionalNullable(v.boolean()),
  },
  strictMessage,
);

export const loginSchema = v.strictObject(
  {
    username: v.pipe(v.string('username must be a string'), v.maxLength(256, 'username is too long')),
    password: v.pipe(v.string('password must be a string'), v.maxLength(1024, 'password is too long')),
    // Uploader token scripts send `"code": null`; for an optional login field null means absent.
    // A TOTP code, or a recovery code (`abcd-efgh-ijkl-mnop`, 19 characters).
    code: v.optional(
      v.nullable(v.pipe(v.string('code must be a string or null'), v.maxLength(32, 'code is too long'))),
    ),
  },
  strictMessage,
);

export const setupSchema = v.strictObject(
  {
    username: usernameSchema,
    password: passwordSchema,
    /** The deployment's one-time setup code, when it has one (users/setup-code.ts). */
    code: v.optional(v.pipe(v.string(), v.maxLength(200))),
  },
  strictMessage,
);

export const patchCurrentUserSchema = v.strictObject(
  {
    username: v.optional(usernameSchema),
    password: v.optional(passwordSchema),
    /**
     * With `password`: checked when given; needed (or `code`) when TOTP is on and the session was
     * not made by the password (auth/current-password.ts).
     */
    currentPassword: v.optional(
      v.pipe(v.string('currentPassword must be a string'), v.maxLength(1024, 'currentPassword is too long')),
    ),
    /** With `password`: a TOTP code or recovery code, instead of `currentPassword`. */
    code: v.optional(codeSchema),
    avatar: v.optional(avatarInputSchema),
    view: v.optional(viewSchema),
  },
  strictMessage,
);
