import * as v from 'valibot';
import { invalid } from '#shared/errors';
import { MAX_TAGS_PER_FILE } from '#shared/files/model';
import { isFileId } from '#shared/files/names';
import { NO_CONTROL_CHARACTERS, strictMessage } from '#shared/validation/text';

/**
 * A tag's input (docs/tags.md). Its name: trimmed (as Zipline's), 1–64 characters without control
 * characters; its colour Zipline's rule, `#rgb` or `#rrggbb` hexadecimal, kept as typed.
 */
export const MAX_TAG_NAME_LENGTH = 64;
const NAME_RULE = `must be 1 to ${MAX_TAG_NAME_LENGTH} characters, without control characters`;
const tagNameSchema = v.pipe(
  v.string(NAME_RULE),
  v.trim(),
  v.check((value) => [...value].length >= 1 && [...value].length <= MAX_TAG_NAME_LENGTH, NAME_RULE),
  v.regex(NO_CONTROL_CHARACTERS, NAME_RULE),
);
const COLOR_RULE = 'must be a hex colour, #rgb or #rrggbb';
const colorSchema = v.pipe(v.string(COLOR_RULE), v.regex(/^#([0-9A-Fa-f]{6}|[0-9A-Fa-f]{3})$/, COLOR_RULE));

/** `POST /api/user/tags`. */
export const createTagSchema = v.strictObject({ name: tagNameSchema, color: colorSchema }, strictMessage);

/** `PATCH /api/user/tags/{id}`: what is present changes. */
export const patchTagSchema = v.strictObject(
  { name: v.optional(tagNameSchema), color: v.optional(colorSchema) },
  strictMessage,
);

/** A tag's id: a time-ordered id, a file id's format. */
export const TAG_ID = { accepts: isFileId, notFound: 'tag not found' };

/** `PATCH /api/user/files/{id}` `tags`: ids, at most `MAX_TAGS_PER_FILE` of them (duplicates count once). */
export const fileTagsSchema = v.pipe(
  v.array(
    v.pipe(v.string('must be tag ids'), v.check(isFileId, 'invalid tag somewhere: not a tag id')),
    'must be an array of tag ids',
  ),
  v.transform((ids) => [...new Set(ids)].sort()),
  v.maxLength(MAX_TAGS_PER_FILE, `a file has at most ${MAX_TAGS_PER_FILE} tags`),
);

/**
 * The bulk PATCH's `tags` (`PATCH /api/user/files/transaction`, issue 35): tag ids to add to every
 * file and ids to take off, each list at most `MAX_TAGS_PER_FILE` (duplicates count once), at least
 * one id in all, and no id in both lists (which would mean nothing).
 */
export const bulkTagsSchema = v.pipe(
  v.strictObject(
    { add: v.optional(fileTagsSchema, []), remove: v.optional(fileTagsSchema, []) },
    strictMessage,
  ),
  v.check(({ add, remove }) => add.length + remove.length > 0, 'tags: add or remove at least one tag'),
  v.check(
    ({ add, remove }) => !add.some((id) => remove.includes(id)),
    'tags: a tag cannot be both added and removed',
  ),
);

/**
 * `searchField=tags`'s `searchQuery`: comma-separated tag ids (Zipline's), blanks dropped, at most
 * `MAX_TAGS_PER_FILE` (no file has more); an id that cannot be one is the 400 of an unknown tag.
 */
export function readTagQuery(searchQuery: string): [string, ...string[]] {
  const ids = [
    ...new Set(
      searchQuery
        .split(',')
        .map((id) => id.trim())
        .filter(Boolean),
    ),
  ];
  if (ids.length === 0 || ids.length > MAX_TAGS_PER_FILE) {
    throw invalid(`searchQuery must list 1 to ${MAX_TAGS_PER_FILE} tag ids`);
  }
  if (!ids.every(isFileId)) throw invalid('invalid tag somewhere');
  return ids as [string, ...string[]];
}
