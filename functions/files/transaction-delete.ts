import { authenticate } from '#shared/auth/authenticate';
import { BULK_BODY_BYTES } from '#shared/files/bulk';
import { deleteFiles } from '#shared/files/bulk-delete';
import { defineHandler } from '#shared/http/handler';
import { readJson } from '#shared/http/request';
import { json } from '#shared/http/response';
import { bulkDeleteSchema } from '#shared/validation/folders/schemas';

/**
 * Zipline's bulk delete, of the caller's files only (Zipline's deletes any id it is given): each as
 * `DELETE /api/user/files/{id}` (bytes, thumbnail, name, counters, quota); `{count, missing, failed}`.
 */
export const handler = defineHandler(
  async (request) => {
    const { user } = await authenticate(request);
    const { files } = readJson(request, bulkDeleteSchema);
    return json(200, await deleteFiles(user.id, files));
  },
  { bodyLimit: BULK_BODY_BYTES },
);
