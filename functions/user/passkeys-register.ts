import { authenticate } from '#shared/auth/authenticate';
import { defineHandler } from '#shared/http/handler';
import { relyingParty } from '#shared/http/origin';
import { readJson } from '#shared/http/request';
import { json } from '#shared/http/response';
import { registerPasskey } from '#shared/passkeys/ceremonies';
import { toUserResource } from '#shared/users/model';
import { passkeyRegistrationSchema } from '#shared/validation/sign-in/passkeys';

/** Verifies the browser's registration answer and adds the passkey: 200 `{user}`. */
export const handler = defineHandler(async (request) => {
  const caller = await authenticate(request, { consistent: true, sessionOnly: true });
  const { response, name } = readJson(request, passkeyRegistrationSchema);
  return json(200, {
    user: toUserResource(await registerPasskey(caller.user, response, name, relyingParty(request))),
  });
});
