import { authenticate } from '#shared/auth/authenticate';
import { notFound } from '#shared/errors';
import { BULK_BODY_BYTES, changeFiles } from '#shared/files/bulk';
import { requireFolder } from '#shared/folders/store';
import { defineHandler } from '#shared/http/handler';
import { readJson } from '#shared/http/request';
import { json } from '#shared/http/response';
import { bulkChangeOf, bulkPatchSchema, FOLDER_ID } from '#shared/validation/folders/schemas';

/**
 * Zipline's bulk favourite / move: `{files, favorite}` or `{files, folder}` (null: out of any folder).
 * Answers `{count}` (files changed) and, as Zipline's move, the folder's `name`; ids that are not the
 * caller's files are `missing`, never touched (shared/files/bulk.ts).
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
    const result = await changeFiles(user.id, body.files, change);
    return json(200, { ...result, ...(name === undefined ? {} : { name }) });
  },
  { bodyLimit: BULK_BODY_BYTES },
);
