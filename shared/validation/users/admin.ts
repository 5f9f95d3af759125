import * as v from 'valibot';
import { parseByteSize } from '#shared/quota';
import { ROLES } from '#shared/users/model';
import { strictMessage } from '#shared/validation/text';
import { avatarInputSchema, passwordSchema, usernameSchema } from '#shared/validation/users/account';

const roleSchema = v.picklist(ROLES, `role must be one of ${ROLES.join(', ')}`);

const maxBytesSchema = v.pipe(
  v.string('maxBytes must be a string such as "10737418240" or "10gb", or null'),
  v.maxLength(32, 'maxBytes is too long'),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const bytes = parseByteSize(dataset.value);
    if (bytes !== undefined) return String(bytes);
    addIssue({ message: `maxBytes must be a positive byte size such as "10737418240" or "10gb"` });
    return NEVER;
  }),
);

const maxFilesSchema = v.pipe(
  v.number('maxFiles must be a number or null'),
  v.safeInteger('maxFiles must be a whole number'),
  v.minValue(1, 'maxFiles must be at least 1'),
);

const maxUrlsSchema = v.pipe(
  v.number('maxUrls must be a number or null'),
  v.safeInteger('maxUrls must be a whole number'),
  v.minValue(1, 'maxUrls must be at least 1'),
);

/**
 * A quota names what it limits; that limit is required and the other one must be null, so a stored
 * quota never carries a number that does nothing. `null` removes the quota.
 */
const contractQuotaSchema = v.nullable(
  v.pipe(
    v.strictObject(
      {
        filesQuota: v.picklist(['BY_BYTES', 'BY_FILES'], 'filesQuota must be BY_BYTES or BY_FILES'),
        maxBytes: v.optional(v.nullable(maxBytesSchema), null),
        maxFiles: v.optional(v.nullable(maxFilesSchema), null),
        maxUrls: v.optional(v.nullable(maxUrlsSchema)),
      },
      strictMessage,
    ),
    v.check(
      (quota) => (quota.filesQuota === 'BY_BYTES') === (quota.maxBytes !== null),
      'quota: maxBytes is required with BY_BYTES and must be null with BY_FILES',
    ),
    v.check(
      (quota) => (quota.filesQuota === 'BY_FILES') === (quota.maxFiles !== null),
      'quota: maxFiles is required with BY_FILES and must be null with BY_BYTES',
    ),
  ),
);

/**
 * The shape Zipline's admin clients send: `{filesType: BY_BYTES|BY_FILES|NONE, maxBytes, maxFiles,
 * maxUrls}`. As Zipline does, the limit `filesType` names is required and the other one is dropped;
 * `NONE` removes the quota. `maxUrls` limits short links (issue 34); with `NONE` it has no quota to
 * live in and is refused unless null. Stored and answered in the contract's shape.
 */
const ziplineQuotaSchema = v.pipe(
  v.strictObject(
    {
      filesType: v.picklist(['BY_BYTES', 'BY_FILES', 'NONE'], 'must be BY_BYTES, BY_FILES or NONE'),
      maxBytes: v.optional(v.nullable(maxBytesSchema), null),
      maxFiles: v.optional(v.nullable(maxFilesSchema), null),
      maxUrls: v.optional(v.nullable(maxUrlsSchema), null),
    },
    strictMessage,
  ),
  v.check(
    (quota) => quota.filesType !== 'BY_BYTES' || quota.maxBytes !== null,
    'maxBytes is required with BY_BYTES',
  ),
  v.check(
    (quota) => quota.filesType !== 'BY_FILES' || quota.maxFiles !== null,
    'maxFiles is required with BY_FILES',
  ),
  v.check(
    (quota) => quota.filesType !== 'NONE' || quota.maxUrls === null,
    'maxUrls needs filesType BY_BYTES or BY_FILES',
  ),
  v.transform((quota) => {
    const urls = quota.maxUrls === null ? {} : { maxUrls: quota.maxUrls };
    if (quota.filesType === 'BY_BYTES')
      return { filesQuota: 'BY_BYTES' as const, maxBytes: quota.maxBytes, maxFiles: null, ...urls };
    if (quota.filesType === 'BY_FILES')
      return { filesQuota: 'BY_FILES' as const, maxBytes: null, maxFiles: quota.maxFiles, ...urls };
    return null;
  }),
);

/** Either shape; an object with `filesType` is read as Zipline's. */
export const quotaSchema = v.lazy((input) =>
  typeof input === 'object' && input !== null && 'filesType' in input
    ? ziplineQuotaSchema
    : contractQuotaSchema,
);

export const createUserSchema = v.strictObject(
  {
    username: usernameSchema,
    password: passwordSchema,
    role: v.optional(roleSchema, 'USER'),
    quota: v.optional(quotaSchema, null),
    avatar: v.optional(avatarInputSchema),
  },
  strictMessage,
);

export const patchUserSchema = v.strictObject(
  {
    username: v.optional(usernameSchema),
    password: v.optional(passwordSchema),
    role: v.optional(roleSchema),
    quota: v.optional(quotaSchema),
    avatar: v.optional(avatarInputSchema),
    /** `null` turns the user's TOTP off (a locked-out user); nothing else can be set here. */
    totpSecret: v.optional(v.null('totpSecret can only be null, which turns TOTP off')),
  },
  strictMessage,
);

export const MAX_LIST_LIMIT = 1000;

/** Unknown parameters (the Zipline dashboard's `noincl=true`, cache-busters) are ignored. */
export const listUsersQuerySchema = v.object(
  {
    limit: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^[0-9]{1,4}$/, `limit must be a whole number from 1 to ${MAX_LIST_LIMIT}`),
        v.transform(Number),
        v.minValue(1, `limit must be a whole number from 1 to ${MAX_LIST_LIMIT}`),
        v.maxValue(MAX_LIST_LIMIT, `limit must be a whole number from 1 to ${MAX_LIST_LIMIT}`),
      ),
      String(MAX_LIST_LIMIT),
    ),
    cursor: v.optional(v.pipe(v.string(), v.minLength(1, 'cursor must not be empty'))),
    // Zipline's "leave me out" (issue 33): the listing never holds the caller (nobody acts on
    // themselves through /api/users, decisions.md), so both values list the same users.
    noincl: v.optional(v.picklist(['true', 'false'], 'noincl must be true or false')),
  },
  'invalid query',
);
