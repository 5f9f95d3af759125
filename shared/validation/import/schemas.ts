import * as v from 'valibot';
import { MIME_TYPE } from '#shared/files/mime-type';
import { MAX_TAGS_PER_FILE } from '#shared/files/model';
import { fileNameSchema, isoDate } from '#shared/validation/files/schemas';
import { createFolderSchema } from '#shared/validation/folders/schemas';
import type { IdFormat } from '#shared/validation/ids';
import { createLinkSchema, patchLinkSchema } from '#shared/validation/links/schemas';
import { createTagSchema } from '#shared/validation/tags/schemas';
import { strictMessage } from '#shared/validation/text';
import { avatarInputSchema, usernameSchema, viewSchema } from '#shared/validation/users/account';
import { quotaSchema } from '#shared/validation/users/admin';

/**
 * The bodies of the Zipline import routes (issue 40, docs/api.md "Import from Zipline"): Zipline's
 * rows as the importer reads them, each field under this service's own rule for it (a username, a
 * file name, a vanity are refused here when they would be refused anywhere else).
 */

/**
 * A Zipline row's id, as Zipline 4's schema makes them (Prisma's `cuid()`: `c` and 24 lower-case
 * letters and digits; up to 32 allowed): what the routes' `{ziplineId}` and the bodies' references take.
 */
const ZIPLINE_ID_RULE = /^c[a-z0-9]{19,31}$/;
export const ZIPLINE_ID: IdFormat = {
  accepts: (value) => ZIPLINE_ID_RULE.test(value),
  notFound: 'not a Zipline id',
};
const ziplineId = v.pipe(v.string('must be a Zipline id'), v.regex(ZIPLINE_ID_RULE, 'must be a Zipline id'));
const count = v.pipe(
  v.number('must be a whole number'),
  v.safeInteger('must be a whole number'),
  v.minValue(0),
);
const maxViews = v.nullable(v.pipe(count, v.maxValue(2 ** 31 - 1)));
const createdAt = v.optional(isoDate);
/** A password as Zipline's API or export has it: none, `true` (protected), or its hash. */
const ziplinePassword = v.optional(
  v.nullable(
    v.union([v.boolean(), v.pipe(v.string(), v.maxLength(1024))], 'must be null, a boolean or a hash'),
  ),
  null,
);

export const importUserSchema = v.strictObject(
  {
    username: usernameSchema,
    role: v.picklist(['USER', 'ADMIN', 'SUPERADMIN'], 'role must be USER, ADMIN or SUPERADMIN'),
    view: v.optional(viewSchema),
    quota: v.optional(quotaSchema, null),
    avatar: v.optional(avatarInputSchema, null),
    createdAt,
    adoptExisting: v.optional(v.boolean('must be a boolean'), false),
  },
  strictMessage,
);

export const importFolderSchema = v.strictObject(
  {
    owner: ziplineId,
    name: createFolderSchema.entries.name,
    public: v.optional(v.boolean('must be a boolean'), false),
    allowUploads: v.optional(v.boolean('must be a boolean'), false),
    createdAt,
  },
  strictMessage,
);

export const importTagSchema = v.strictObject(
  { owner: ziplineId, name: createTagSchema.entries.name, color: createTagSchema.entries.color, createdAt },
  strictMessage,
);

export const importUrlSchema = v.strictObject(
  {
    owner: ziplineId,
    code: v.pipe(
      v.string('must be a code'),
      v.regex(/^[A-Za-z0-9._~-]{1,100}$/, 'must be 1 to 100 of A-Z a-z 0-9 . _ ~ -'),
    ),
    vanity: v.optional(patchLinkSchema.entries.vanity, null),
    destination: createLinkSchema.entries.destination,
    views: v.optional(count, 0),
    maxViews: v.optional(maxViews, null),
    enabled: v.optional(v.boolean('must be a boolean'), true),
    password: ziplinePassword,
    createdAt,
  },
  strictMessage,
);

const NAME_RULE = 'must be a file name without slashes';
export const importFileSchema = v.strictObject(
  {
    owner: ziplineId,
    name: v.pipe(
      fileNameSchema,
      v.check((value) => !value.includes('/'), NAME_RULE),
    ),
    originalName: v.optional(v.nullable(fileNameSchema), null),
    type: v.pipe(v.string('must be a MIME type'), v.regex(MIME_TYPE, 'must be a MIME type')),
    size: v.pipe(count, v.maxValue(5 * 1024 ** 3, 'a file can be at most 5 GiB')),
    views: v.optional(count, 0),
    maxViews: v.optional(maxViews, null),
    deletesAt: v.optional(v.nullable(isoDate), null),
    favorite: v.optional(v.boolean('must be a boolean'), false),
    password: ziplinePassword,
    folder: v.optional(v.nullable(ziplineId), null),
    tags: v.optional(
      v.pipe(v.array(ziplineId), v.maxLength(MAX_TAGS_PER_FILE, `at most ${MAX_TAGS_PER_FILE} tags`)),
      [],
    ),
    createdAt,
  },
  strictMessage,
);

export const completeFileSchema = v.strictObject({ owner: ziplineId }, strictMessage);
