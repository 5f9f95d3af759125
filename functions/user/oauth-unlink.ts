import { authenticate } from '#shared/auth/authenticate';
import { defineHandler } from '#shared/http/handler';
import { readJson } from '#shared/http/request';
import { json } from '#shared/http/response';
import { toUserResource } from '#shared/users/model';
import { unlinkIdentity } from '#shared/users/sign-in/oauth-links';
import { oauthUnlinkSchema } from '#shared/validation/sign-in/oauth';

/** Unlinks a provider, unless it is the account's last way to sign in. */
export const handler = defineHandler(async (request) => {
  const caller = await authenticate(request, { sessionOnly: true });
  const { provider } = readJson(request, oauthUnlinkSchema);
  return json(200, { user: toUserResource(await unlinkIdentity(caller.user, provider)) });
});
