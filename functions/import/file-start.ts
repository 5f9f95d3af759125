import { authenticate } from '#shared/auth/authenticate';
import { importedPasswordHash } from '#shared/auth/password';
import { defineHandler } from '#shared/http/handler';
import { readJson } from '#shared/http/request';
import { json } from '#shared/http/response';
import { startImportedFile } from '#shared/import/files';
import { requireSuperAdministrator } from '#shared/users/admin';
import { pathId } from '#shared/validation/ids';
import { importFileSchema, ZIPLINE_ID } from '#shared/validation/import/schemas';

/**
 * Starts importing a Zipline file (issue 40): 200 when it is imported already, else 202 with a
 * presigned PUT for its bytes (straight to S3, never through a function), which the completion
 * route then records.
 */
export const handler = defineHandler(async (request) => {
  const caller = await authenticate(request, { consistent: true, sessionOnly: true });
  requireSuperAdministrator(caller.user);
  const { password, ...input } = readJson(request, importFileSchema);
  const ziplineId = pathId(request, 'ziplineId', ZIPLINE_ID);
  const started = await startImportedFile(ziplineId, {
    ...input,
    originalName: input.originalName ?? input.name,
    passwordHash: await importedPasswordHash(password),
    createdAt: input.createdAt ?? new Date().toISOString(),
  });
  if ('upload' in started) return json(202, { upload: started.upload });
  return json(200, { created: false, id: started.done.id, ...started.done.details });
});
