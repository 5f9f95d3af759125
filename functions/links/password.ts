import { verifyPassword } from '#shared/auth/password';
import { forbidden } from '#shared/errors';
import { defineHandler } from '#shared/http/handler';
import { readJson } from '#shared/http/request';
import { json } from '#shared/http/response';
import { checkLinkPassword } from '#shared/links/redirect';
import { pathId } from '#shared/validation/ids';
import { LINK_NAME, linkPasswordSchema } from '#shared/validation/links';

/**
 * `POST /api/user/urls/{id}/password` (Zipline's, public): whether the password opens the link named
 * by its id, code or vanity: `{success: true}`, else 403 alike for a wrong password and for a link
 * that is unknown, disabled or out of views; guesses throttled as the form's. Counts no view.
 */
export const handler = defineHandler(async (request) => {
  const name = pathId(request, 'id', LINK_NAME);
  const { password } = readJson(request, linkPasswordSchema);
  const route = await checkLinkPassword(name, {
    value: password,
    sourceIp: request.sourceIp,
    check: verifyPassword,
  });
  if (!route) throw forbidden('invalid password');
  return json(200, { success: true });
});
