import { defineHandler } from '#shared/http/handler';
import { relyingParty } from '#shared/http/origin';
import { json } from '#shared/http/response';
import { signInOptions } from '#shared/passkeys/ceremonies';

/**
 * A passkey sign-in's options: a new challenge, no credentials listed (the browser offers them).
 * No origin check: it signs nobody in (the answer's route has the login's check).
 */
export const handler = defineHandler(async (request) => {
  return json(200, await signInOptions(relyingParty(request)));
});
