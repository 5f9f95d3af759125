import { authenticate } from '#shared/auth/authenticate';
import { defineHandler } from '#shared/http/handler';
import { readJson } from '#shared/http/request';
import { json } from '#shared/http/response';
import { importUser } from '#shared/import/users';
import { requireSuperAdministrator } from '#shared/users/admin';
import { decodeAvatar } from '#shared/users/avatar/avatar';
import type { ViewSettings } from '#shared/users/model';
import { pathId } from '#shared/validation/ids';
import { importUserSchema, ZIPLINE_ID } from '#shared/validation/import/schemas';
import { AVATAR_BODY_LIMIT } from '#shared/validation/users/account';

/**
 * Imports a Zipline user (issue 40): a session of a SUPERADMIN only (it makes accounts and
 * administrators: never a token), idempotent by the Zipline id.
 */
export const handler = defineHandler(
  async (request) => {
    const caller = await authenticate(request, { consistent: true, sessionOnly: true });
    requireSuperAdministrator(caller.user);
    const input = readJson(request, importUserSchema);
    const ziplineId = pathId(request, 'ziplineId', ZIPLINE_ID);
    const view =
      input.view &&
      (Object.fromEntries(
        Object.entries(input.view).filter(([, value]) => value !== null && value !== undefined),
      ) as ViewSettings);
    const imported = await importUser(ziplineId, {
      ...input,
      view,
      avatar: input.avatar === null ? null : decodeAvatar(input.avatar),
    });
    return json(imported.created ? 201 : 200, {
      created: imported.created,
      id: imported.id,
      ...imported.details,
    });
  },
  { bodyLimit: AVATAR_BODY_LIMIT },
);
