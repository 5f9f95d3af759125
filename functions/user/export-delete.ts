import { authenticate } from '#shared/auth/authenticate';
import { deleteExport } from '#shared/exports/changes';
import { defineHandler } from '#shared/http/handler';
import { json } from '#shared/http/response';
import { exportIdOf } from '#shared/validation/exports/query';

/** `DELETE /api/user/export?id=` (Zipline's `{deleted: true}`): one of the caller's exports and its zip. */
export const handler = defineHandler(async (request) => {
  const { user } = await authenticate(request);
  await deleteExport(user.id, exportIdOf(request.query, true) as string);
  return json(200, { deleted: true });
});
