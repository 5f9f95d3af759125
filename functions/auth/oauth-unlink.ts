import { authenticate } from '#shared/auth/authenticate';
import { defineHandler } from '#shared/http/handler';
import { readJson } from '#shared/http/request';
import { json } from '#shared/http/response';
import { ziplineLinkedProviders } from '#shared/oauth/linked';
import { unlinkIdentity } from '#shared/users/sign-in/oauth-links';
import { oauthUnlinkSchema } from '#shared/validation/sign-in/oauth';

/**
 * Zipline's unlink (`DELETE /api/auth/oauth {provider}`, issue 33): the session only, never the
 * account's last way to sign in (the rules of `DELETE /api/user/oauth`, which answers `{user}`);
 * answers the providers still linked, as Zipline does.
 */
export const handler = defineHandler(async (request) => {
  const caller = await authenticate(request, { sessionOnly: true });
  const { provider } = readJson(request, oauthUnlinkSchema);
  return json(200, ziplineLinkedProviders(await unlinkIdentity(caller.user, provider)));
});
