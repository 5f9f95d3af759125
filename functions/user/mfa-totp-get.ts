import { authenticate } from '#shared/auth/authenticate';
import { defineHandler } from '#shared/http/handler';
import { requestHost } from '#shared/http/origin';
import { json } from '#shared/http/response';
import { totpOffer } from '#shared/mfa/offer';

/** `{secret, qrcode}` to enrol while TOTP is off (the same until an enrolment), `{enabled: true}` while on. */
export const handler = defineHandler(async (request) => {
  const { user } = await authenticate(request, { sessionOnly: true });
  return json(200, await totpOffer(user, requestHost(request)));
});
