import { authenticate } from '#shared/auth/authenticate';
import { invalid, notFound } from '#shared/errors';
import { BULK_BODY_BYTES, changeFiles } from '#shared/files/bulk';
import { requireFolder } from '#shared/folders/store';
import { defineHandler } from '#shared/http/handler';
import { readJson } from '#shared/http/request';
import { json } from '#shared/http/response';
import { requireTag } from '#shared/tags/store';
import { bulkChangeOf, bulkPatchSchema, FOLDER_ID } from '#shared/validation/folders/schemas';

/**
 * Zipline's bulk favourite / move: `{files, favorite}` or `{files, folder}` (null: out of any folder),
 * and this service's `{files, tags: {add, remove}}`. Answers `{count}` (files changed) and, as
 * Zipline's move, the folder's `name`; ids that are not the caller's files are `missing`, never
 * touched (shared/files/bulk.ts). An added tag that is not the caller's is the 400 of a file PATCH
 * (`invalid tag somewhere`), before any file changes.
 */
export const handler = defineHandler(
  async (request) => {
    const { user } = await authenticate(request);
    const body = readJson(request, bulkPatchSchema);
    const change = bulkChangeOf(body);
    let name: string | undefined;
    if ('folder' in change && change.folder !== null) {
      if (!FOLDER_ID.accepts(change.folder)) throw notFound(FOLDER_ID.notFound);
      name = (await requireFolder(user.id, change.folder)).name;
    }
    if ('tags' in change) {
      await Promise.all(change.tags.add.map((id) => requireTag(user.id, id))).catch(() => {
        throw invalid('invalid tag somewhere');
      });
    }
    const result = await changeFiles(user.id, body.files, change);
    return json(200, { ...result, ...(name === undefined ? {} : { name }) });
  },
  { bodyLimit: BULK_BODY_BYTES },
);
