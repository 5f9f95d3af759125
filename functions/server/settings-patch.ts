import { authenticate, requireSession } from '#shared/auth/authenticate';
import { defineHandler } from '#shared/http/handler';
import { readJson } from '#shared/http/request';
import { json } from '#shared/http/response';
import { remember } from '#shared/settings/current';
import { changeSettings, type SettingsChange } from '#shared/settings/store';
import { MASKED_SECRET, maskedWebhookSecret } from '#shared/settings/webhooks';
import { requireSuperAdministrator } from '#shared/users/admin';
import { settingsPatchSchema } from '#shared/validation/settings/server';

/**
 * `PATCH /api/server/settings` (SUPERADMIN, with a session: opening registration or lifting upload
 * limits is not for a leaked API token), as Zipline 4.4's: the settings sent, validated together
 * before anything is written; answers the settings now in force. Every function applies them
 * within `SETTINGS_STALENESS_MS` (settings/current.ts); this one at once.
 */
export const handler = defineHandler(async (request) => {
  const caller = await authenticate(request);
  requireSuperAdministrator(caller.user);
  requireSession(caller);
  const patch = readJson(request, settingsPatchSchema);
  // The mask GET answered, sent back by a form that sends every field: the secret stays.
  if (patch.httpWebhookSecret === MASKED_SECRET) delete patch.httpWebhookSecret;
  const stored = await changeSettings(patch as SettingsChange);
  remember(stored);
  return json(200, { settings: maskedWebhookSecret(stored.settings), tampered: [], version: stored.version });
});
