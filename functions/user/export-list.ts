import { authenticate } from '#shared/auth/authenticate';
import { exportDownloadUrl } from '#shared/exports/changes';
import { toExportResource } from '#shared/exports/model';
import { listExports } from '#shared/exports/store';
import { defineHandler } from '#shared/http/handler';
import { json, redirect } from '#shared/http/response';
import { exportIdOf } from '#shared/validation/exports/query';

/**
 * `GET /api/user/export` (Zipline's): the caller's exports, newest first, with their progress; with
 * `?id=`, a redirect to that completed export's zip through a short-lived presigned link.
 */
export const handler = defineHandler(async (request) => {
  const { user } = await authenticate(request);
  const id = exportIdOf(request.query, false);
  if (id !== undefined) return redirect(await exportDownloadUrl(user.id, id));
  const now = Date.now();
  return json(
    200,
    (await listExports(user.id, now)).map((record) => toExportResource(record, now)),
  );
});
