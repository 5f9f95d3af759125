import { defineHandler } from '#shared/http/handler';
import { redirect } from '#shared/http/response';
import { peekLink } from '#shared/links/redirect';
import { LINK_ID } from '#shared/validation/ids';
import { linkNotFound, passwordPage } from '#shared/view/link-page';

/**
 * `GET /view/url/{id}` (Zipline's page of a link): a protected link's password form, posted back to
 * this URL without script; an open unprotected link sends on to `/go/{code}`, which counts its view;
 * anything else: the redirect's 404.
 */
export const handler = defineHandler(async (request) => {
  const id = request.pathParameters.id;
  const route = id !== undefined && LINK_ID.accepts(id) ? await peekLink(id) : undefined;
  if (!route) return linkNotFound(request);
  if (route.passwordHash === null) return redirect(`/go/${route.code}`);
  return passwordPage(false);
});
