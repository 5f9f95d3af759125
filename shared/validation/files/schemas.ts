import * as v from 'valibot';
import { invalid } from '#shared/errors';
import { MIME_TYPE } from '#shared/files/mime-type';
import { LIST_FILTERS, SEARCH_FIELDS, SORT_FIELDS } from '#shared/files/model';
import { MAX_NAME_BYTES, uploadedFileName } from '#shared/files/names';
import { fileTagsSchema } from '#shared/validation/tags/schemas';
import { MAX_PASSWORD_BYTES, NO_CONTROL_CHARACTERS, strictMessage } from '#shared/validation/text';

export const fileNameSchema = v.pipe(
  v.string('must be a string'),
  v.trim(),
  v.minLength(1, 'must not be empty'),
  v.check((value) => Buffer.byteLength(value) <= MAX_NAME_BYTES, `must be at most ${MAX_NAME_BYTES} bytes`),
  v.regex(NO_CONTROL_CHARACTERS, 'must not contain control characters'),
);

/**
 * A public name the client chose (`x-zipline-filename`, a PATCH's `name`): the one name rule of
 * uploads, refused rather than rewritten (a name that `uploadedFileName` would change: a path, quotes,
 * `< > ? # %`).
 */
export const chosenFileNameSchema = v.pipe(
  fileNameSchema,
  v.check(
    (value) => uploadedFileName(value) === value,
    `must be a file name of 1 to ${MAX_NAME_BYTES} bytes without slashes, control characters, quotes or < > ? # %`,
  ),
);

/** An uploaded file's name as the client sent it, put through the one name rule first. */
export const uploadedNameSchema = v.pipe(
  v.string('must be a string'),
  v.transform(uploadedFileName),
  fileNameSchema,
);

const integerText = (name: string, min: number, max: number) =>
  v.pipe(
    v.string(),
    v.regex(/^\d{1,9}$/, `${name} must be an integer from ${min} to ${max}`),
    v.transform(Number),
    v.minValue(min, `${name} must be an integer from ${min} to ${max}`),
    v.maxValue(max, `${name} must be an integer from ${min} to ${max}`),
  );

/** A query flag; `validate` names the parameter in front of the message. */
const booleanText = () =>
  v.pipe(
    v.string(),
    v.toLowerCase(),
    v.picklist(['true', 'false'], 'must be true or false'),
    v.transform((value) => value === 'true'),
  );

/**
 * `GET /api/user/files` query parameters (all strings, as API Gateway passes them). Parameters the
 * route does not know (cache-busters such as `_=1700000000`) are ignored, as Zipline does.
 */
export const listQuerySchema = v.object(
  {
    page: v.optional(integerText('page', 1, 1_000_000), '1'),
    perpage: v.optional(integerText('perpage', 1, 100), '15'),
    filter: v.optional(v.picklist(LIST_FILTERS, `filter must be one of ${LIST_FILTERS.join(', ')}`), 'all'),
    favorite: v.optional(booleanText(), 'false'),
    sortBy: v.optional(
      v.picklist(SORT_FIELDS, `sortBy must be one of ${SORT_FIELDS.join(', ')}`),
      'createdAt',
    ),
    order: v.optional(v.picklist(['asc', 'desc'], 'order must be asc or desc'), 'desc'),
    searchField: v.optional(
      v.picklist(SEARCH_FIELDS, `searchField must be one of ${SEARCH_FIELDS.join(', ')}`),
      'name',
    ),
    searchQuery: v.optional(
      v.pipe(v.string(), v.maxLength(255, 'searchQuery must be at most 255 characters')),
    ),
    cursor: v.optional(v.string()),
    /** Another user's id: an administrator's listing of that user's files (Zipline's `id`). */
    id: v.optional(v.string()),
    /** A folder's id: its files only (issue 35), in any order of the listing. */
    folder: v.optional(v.string()),
  },
  'invalid query',
);

/**
 * `GET /raw/{name}`: `download=true` serves the file as an attachment, `pw` is a protected file's
 * password (as Zipline's links carry it); other parameters are ignored.
 */
export const rawQuerySchema = v.object(
  {
    download: v.optional(booleanText(), 'false'),
    pw: v.optional(v.string()),
    embed: v.optional(v.pipe(v.string(), v.regex(/^[\w-]{22}$/, 'is not an embed link'))),
  },
  'invalid query',
);

/**
 * `POST /api/user/files/{name}/password`, as Zipline's: the password to check (a guess is a guess, any
 * text; an empty one is Zipline's 400).
 */
export const filePasswordCheckSchema = v.strictObject(
  {
    password: v.pipe(
      v.string('must be a string'),
      v.minLength(1, 'must not be empty'),
      v.maxLength(1024, 'password is too long'),
    ),
  },
  strictMessage,
);

/** `/u/{name}`'s query: `/raw`'s but the embed link, which only `/raw` answers. */
export const linkQuerySchema = v.omit(rawQuerySchema, ['embed']);

/** The view page's password form (`POST /view/{name}`): one field, any text (a guess is a guess). */
export const viewPasswordFormSchema = v.object(
  { password: v.pipe(v.string(), v.maxLength(1024, 'password is too long')) },
  'invalid form',
);

const MAX_VIEWS = 2 ** 31 - 1;

/** ISO 8601 with a time zone; stored normalised to UTC with `Z`. */
export const isoDate = v.pipe(
  v.string('must be an ISO 8601 date'),
  v.regex(
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i,
    'must be an ISO 8601 date',
  ),
  v.check((value) => !Number.isNaN(Date.parse(value)), 'must be an ISO 8601 date'),
  v.transform((value) => new Date(value).toISOString()),
);

/** Why an expiry that is not ahead is refused, on every path that sets one. */
export const PAST_EXPIRY =
  'a file past its expiry is deleted at once and for good (to delete it now, DELETE it)';

/** A new `deletesAt`: ahead of now, or a file's edit would delete it without a word. */
const futureDate = v.pipe(
  isoDate,
  v.check((value) => Date.parse(value) > Date.now(), `must be ahead of now: ${PAST_EXPIRY}`),
);

/**
 * `PATCH /api/user/files/{id}`, as Zipline's edit dialog sends it. `name` renames the file (its public
 * name: the old links stop answering); `password` sets the file's password (`""`/`null` removes it;
 * see `readFilePassword`); `tags` replaces the file's tags (the caller's own: docs/tags.md); `{}`
 * changes nothing.
 */
export const patchFileSchema = v.strictObject(
  {
    name: v.optional(chosenFileNameSchema),
    favorite: v.optional(v.boolean('must be a boolean')),
    originalName: v.optional(fileNameSchema),
    maxViews: v.optional(
      v.nullable(
        v.pipe(
          v.number('must be an integer or null'),
          v.integer('must be an integer'),
          v.minValue(1, 'must be at least 1'),
          v.maxValue(MAX_VIEWS),
        ),
      ),
    ),
    deletesAt: v.optional(v.nullable(futureDate)),
    type: v.optional(
      v.pipe(v.string('must be a MIME type'), v.regex(MIME_TYPE, 'must be a MIME type'), v.toLowerCase()),
    ),
    password: v.optional(v.nullable(v.string('must be a string or null'))),
    tags: v.optional(fileTagsSchema),
  },
  strictMessage,
);

/**
 * A file password as sent (`x-zipline-password`, PATCH `password`): null when absent or empty (the
 * PATCH's way to remove it), else 1–72 bytes without control characters; `name` leads the 400.
 */
export function readFilePassword(value: string | null | undefined, name: string): string | null {
  if (value === undefined || value === null || value === '') return null;
  if (Buffer.byteLength(value) > MAX_PASSWORD_BYTES || !NO_CONTROL_CHARACTERS.test(value)) {
    throw invalid(`${name} must be at most ${MAX_PASSWORD_BYTES} bytes, without control characters`);
  }
  return value;
}

export const startUploadSchema = v.strictObject(
  {
    originalName: uploadedNameSchema,
    size: v.pipe(
      v.number('must be a number'),
      v.integer('must be an integer'),
      v.minValue(0),
      v.maxValue(2 ** 53 - 1),
    ),
    type: v.optional(
      v.pipe(v.string(), v.regex(MIME_TYPE, 'must be a MIME type')),
      'application/octet-stream',
    ),
  },
  strictMessage,
);
