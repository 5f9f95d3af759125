import { authenticate } from '#shared/auth/authenticate';
import { defineHandler } from '#shared/http/handler';
import { json } from '#shared/http/response';
import { remember } from '#shared/settings/current';
import { readSettings } from '#shared/settings/store';
import { maskedWebhookSecret } from '#shared/settings/webhooks';
import { requireSuperAdministrator } from '#shared/users/admin';

/**
 * `GET /api/server/settings` (SUPERADMIN), as Zipline 4.4's: `{settings, tampered}`. Nothing here is
 * fixed by the environment (the stack's values are only defaults), so `tampered` is always empty;
 * `version` counts the changes made (docs/settings.md).
 */
export const handler = defineHandler(async (request) => {
  const { user } = await authenticate(request);
  requireSuperAdministrator(user);
  const stored = await readSettings({ consistent: true });
  remember(stored);
  return json(200, { settings: maskedWebhookSecret(stored.settings), tampered: [], version: stored.version });
});
