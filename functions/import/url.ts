import { authenticate } from '#shared/auth/authenticate';
import { importedPasswordHash } from '#shared/auth/password';
import { defineHandler } from '#shared/http/handler';
import { readJson } from '#shared/http/request';
import { json } from '#shared/http/response';
import { importUrl } from '#shared/import/links';
import { requireSuperAdministrator } from '#shared/users/admin';
import { pathId } from '#shared/validation/ids';
import { importUrlSchema, ZIPLINE_ID } from '#shared/validation/import/schemas';

/** Imports a Zipline short link with its code and vanity (issue 40), once per Zipline id. */
export const handler = defineHandler(async (request) => {
  const caller = await authenticate(request, { consistent: true, sessionOnly: true });
  requireSuperAdministrator(caller.user);
  const { password, ...input } = readJson(request, importUrlSchema);
  const ziplineId = pathId(request, 'ziplineId', ZIPLINE_ID);
  const imported = await importUrl(ziplineId, {
    ...input,
    vanity: input.vanity ?? null,
    passwordHash: await importedPasswordHash(password),
    createdAt: input.createdAt ?? new Date().toISOString(),
  });
  return json(imported.created ? 201 : 200, {
    created: imported.created,
    id: imported.id,
    ...imported.details,
  });
});
