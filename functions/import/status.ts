import { authenticate } from '#shared/auth/authenticate';
import { defineHandler } from '#shared/http/handler';
import { json } from '#shared/http/response';
import { importCounts } from '#shared/import/mapping';
import { requireSuperAdministrator } from '#shared/users/admin';

/** What a Zipline import has brought over so far, per kind (docs/migrate-from-zipline.md). */
export const handler = defineHandler(async (request) => {
  const caller = await authenticate(request, { consistent: true, sessionOnly: true });
  requireSuperAdministrator(caller.user);
  return json(200, await importCounts());
});
