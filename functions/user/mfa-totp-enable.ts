import { authenticate } from '#shared/auth/authenticate';
import { defineHandler } from '#shared/http/handler';
import { readJson } from '#shared/http/request';
import { json } from '#shared/http/response';
import { enableTotp } from '#shared/mfa/totp';
import { toUserResource } from '#shared/users/model';
import { enableTotpSchema } from '#shared/validation/sign-in/mfa';

/** Turns TOTP on: the offered secret and a code from the app; answers the ten recovery codes once. */
export const handler = defineHandler(async (request) => {
  const { user } = await authenticate(request, { consistent: true, sessionOnly: true });
  const input = readJson(request, enableTotpSchema);
  const enabled = await enableTotp(user, input);
  return json(200, { user: toUserResource(enabled.user), recoveryCodes: enabled.recoveryCodes });
});
