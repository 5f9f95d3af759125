import { authenticate } from '#shared/auth/authenticate';
import { forbidden } from '#shared/errors';
import { defineHandler } from '#shared/http/handler';
import { readJson } from '#shared/http/request';
import { json } from '#shared/http/response';
import { createInvite } from '#shared/invites/invites';
import { currentSettings } from '#shared/settings/current';
import { requireUserAdministrator } from '#shared/users/admin';
import { createInviteSchema } from '#shared/validation/invites/invites';

/**
 * `POST /api/auth/invites` `{expiresAt, maxUses?}` (administrators), as Zipline 4.4's: a new code of
 * the server's `invitesLength`; 403 while `invitesEnabled` is off.
 */
export const handler = defineHandler(async (request) => {
  const { user } = await authenticate(request);
  requireUserAdministrator(user);
  const { expiresAt, maxUses } = readJson(request, createInviteSchema);
  const settings = await currentSettings();
  if (!settings.invitesEnabled) throw forbidden('invites are disabled on this server');
  const inviter = { id: user.id, username: user.username, role: user.role };
  return json(200, await createInvite({ inviter, codeLength: settings.invitesLength, maxUses, expiresAt }));
});
