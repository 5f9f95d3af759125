import { authenticate } from '#shared/auth/authenticate';
import { defineHandler } from '#shared/http/handler';
import { readJson } from '#shared/http/request';
import { json } from '#shared/http/response';
import { importTag } from '#shared/import/library';
import { requireSuperAdministrator } from '#shared/users/admin';
import { pathId } from '#shared/validation/ids';
import { importTagSchema, ZIPLINE_ID } from '#shared/validation/import/schemas';

/** Imports a Zipline tag for its imported owner (issue 40), once per Zipline id. */
export const handler = defineHandler(async (request) => {
  const caller = await authenticate(request, { consistent: true, sessionOnly: true });
  requireSuperAdministrator(caller.user);
  const input = readJson(request, importTagSchema);
  const ziplineId = pathId(request, 'ziplineId', ZIPLINE_ID);
  const imported = await importTag(ziplineId, {
    ...input,
    createdAt: input.createdAt ?? new Date().toISOString(),
  });
  return json(imported.created ? 201 : 200, { created: imported.created, id: imported.id });
});
