import { verifyPassword } from '#shared/auth/password';
import { notFound } from '#shared/errors';
import { defineHandler } from '#shared/http/handler';
import { readJson } from '#shared/http/request';
import { json } from '#shared/http/response';
import { checkLinkPassword } from '#shared/links/redirect';
import { LINK_NOT_FOUND } from '#shared/links/store';
import { pathId } from '#shared/validation/ids';
import { LINK_NAME, linkPasswordSchema } from '#shared/validation/links/schemas';

/**
 * `POST /api/user/urls/{id}/password` (Zipline's, public): whether the password opens the link named
 * by its id, code or vanity: `{success: true}`, else the same 404 for a wrong password and for a link
 * that is unknown, disabled or out of views (as a file's password check; Zipline answers 403);
 * guesses throttled as the form's. Counts no view.
 */
export const handler = defineHandler(async (request) => {
  const { password } = readJson(request, linkPasswordSchema);
  const name = pathId(request, 'id', LINK_NAME);
  const route = await checkLinkPassword(name, {
    value: password,
    sourceIp: request.sourceIp,
    check: verifyPassword,
  });
  if (!route) throw notFound(LINK_NOT_FOUND);
  return json(200, { success: true });
});
