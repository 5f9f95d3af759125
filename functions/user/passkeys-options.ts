import { authenticate } from '#shared/auth/authenticate';
import { defineHandler } from '#shared/http/handler';
import { relyingParty } from '#shared/http/origin';
import { json } from '#shared/http/response';
import { registrationOptions } from '#shared/passkeys/ceremonies';

/** A passkey registration's options (a new challenge) for the signed-in user. */
export const handler = defineHandler(async (request) => {
  const caller = await authenticate(request, { consistent: true, sessionOnly: true });
  return json(200, await registrationOptions(caller.user, relyingParty(request)));
});
