import * as v from 'valibot';
import { invalid } from '#shared/errors';
import { type BulkChange, MAX_BULK_FILES } from '#shared/files/bulk';
import { isFileId } from '#shared/files/names';
import type { IdFormat } from '#shared/validation/ids';
import { bulkTagsSchema } from '#shared/validation/tags/schemas';
import { NO_CONTROL_CHARACTERS, strictMessage } from '#shared/validation/text';

/**
 * Folders' and bulk changes' input (issue 35, docs/folders.md). A folder name is 1–255 characters
 * after trimming, without control characters; names need not be unique (as Zipline's). There are no
 * subfolders: `parentId` is accepted only as null.
 */
export const MAX_FOLDER_NAME = 255;

/** A folder's id: `newFileId()`'s format (26 lowercase Crockford base32 characters). */
export const FOLDER_ID: IdFormat = { accepts: isFileId, notFound: 'folder not found' };

const nameSchema = v.pipe(
  v.string('must be a string'),
  v.trim(),
  v.minLength(1, 'must not be empty'),
  v.maxLength(MAX_FOLDER_NAME, `must be at most ${MAX_FOLDER_NAME} characters`),
  v.regex(NO_CONTROL_CHARACTERS, 'must not contain control characters'),
);
const flag = v.boolean('must be a boolean');
const noParent = v.optional(v.null('subfolders are not supported: parentId must be null'));
const fileIds = (max: number) =>
  v.pipe(
    v.array(v.string('must be file ids'), 'must be an array of file ids'),
    v.minLength(1, 'must not be empty'),
    v.maxLength(max, `must hold at most ${max} files`),
  );

/** `POST /api/user/folders`: Zipline's body (`isPublic`, `files` to put in it), and `allowUploads`. */
export const createFolderSchema = v.strictObject(
  {
    name: nameSchema,
    isPublic: v.optional(flag, false),
    allowUploads: v.optional(flag, false),
    files: v.optional(fileIds(MAX_BULK_FILES)),
    parentId: noParent,
  },
  strictMessage,
);

/** `PATCH /api/user/folders/{id}`: what is present changes. */
export const patchFolderSchema = v.strictObject(
  {
    name: v.optional(nameSchema),
    isPublic: v.optional(flag),
    allowUploads: v.optional(flag),
    parentId: noParent,
  },
  strictMessage,
);

/** `PUT /api/user/folders/{id}`: a file (by id) into the folder. */
export const addFileSchema = v.strictObject({ id: v.string('must be a file id') }, strictMessage);

/**
 * `DELETE /api/user/folders/{id}`: `{delete: 'file', id}` takes a file out, `{delete: 'folder'}`
 * deletes the folder and keeps its files (outside any folder), `{delete: true}` deletes its files too.
 * Zipline's `childrenAction` and `targetFolderId` (subfolders) are accepted and mean nothing here.
 */
export const deleteFolderSchema = v.object(
  {
    delete: v.union(
      [v.literal('file'), v.literal('folder'), v.literal(true)],
      "must be 'file', 'folder' or true",
    ),
    id: v.optional(v.string('must be a file id')),
    childrenAction: v.optional(v.string()),
    targetFolderId: v.optional(v.string()),
  },
  'must be a JSON object',
);

/**
 * `PATCH /api/user/files/transaction`: `files` and exactly one change, Zipline's `favorite` or
 * `folder` (an id, or null: out of any folder), or this service's `tags` (`{add, remove}`).
 */
export const bulkPatchSchema = v.strictObject(
  {
    files: fileIds(MAX_BULK_FILES),
    favorite: v.optional(flag),
    folder: v.optional(v.nullable(v.string('must be a folder id or null'))),
    tags: v.optional(bulkTagsSchema),
  },
  strictMessage,
);

/** The one change of a bulk PATCH; none or several is a 400. */
export function bulkChangeOf(body: v.InferOutput<typeof bulkPatchSchema>) {
  const changes = [
    ...(body.favorite === undefined ? [] : [{ favorite: body.favorite }]),
    ...(body.folder === undefined ? [] : [{ folder: body.folder }]),
    ...(body.tags === undefined ? [] : [{ tags: body.tags }]),
  ];
  if (changes.length !== 1) throw invalid('send exactly one of favorite, folder, tags');
  return changes[0] as BulkChange;
}

/** `DELETE /api/user/files/transaction`: Zipline's body; the bytes always go, as a file DELETE's do. */
export const bulkDeleteSchema = v.strictObject(
  { files: fileIds(MAX_BULK_FILES), delete_datasourceFiles: v.optional(flag) },
  strictMessage,
);

/** `/folder/{id}`'s query: `after`, the signed cursor of the page before (other parameters ignored). */
export const folderPageQuerySchema = v.object(
  { after: v.optional(v.pipe(v.string(), v.maxLength(2048, 'after is not a page of this folder'))) },
  'invalid query',
);
