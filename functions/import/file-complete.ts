import { authenticate } from '#shared/auth/authenticate';
import { defineHandler } from '#shared/http/handler';
import { readJson } from '#shared/http/request';
import { json } from '#shared/http/response';
import { completeImportedFile } from '#shared/import/files';
import { requireSuperAdministrator } from '#shared/users/admin';
import { pathId } from '#shared/validation/ids';
import { completeFileSchema, ZIPLINE_ID } from '#shared/validation/import/schemas';

/** Records an imported Zipline file once its bytes are in the bucket with the declared size (issue 40). */
export const handler = defineHandler(async (request) => {
  const caller = await authenticate(request, { consistent: true, sessionOnly: true });
  requireSuperAdministrator(caller.user);
  const { owner } = readJson(request, completeFileSchema);
  const ziplineId = pathId(request, 'ziplineId', ZIPLINE_ID);
  const imported = await completeImportedFile(ziplineId, owner);
  return json(imported.created ? 201 : 200, {
    created: imported.created,
    id: imported.id,
    ...imported.details,
  });
});
