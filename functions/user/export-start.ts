import { authenticate } from '#shared/auth/authenticate';
import { startExport } from '#shared/exports/changes';
import { toExportResource } from '#shared/exports/model';
import { defineHandler } from '#shared/http/handler';
import { json } from '#shared/http/response';

/**
 * `POST /api/user/export` (Zipline's `{running: true}`, and the export itself): starts an export of
 * every file of the caller; 409 while one of theirs runs. Counted against no quota.
 */
export const handler = defineHandler(async (request) => {
  const { user } = await authenticate(request);
  const record = await startExport(user.id);
  return json(200, { running: true, export: toExportResource(record) });
});
