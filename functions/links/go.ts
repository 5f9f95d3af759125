import { defineHandler } from '#shared/http/handler';
import { visitLink } from '#shared/links/redirect';
import { LINK_NAME } from '#shared/validation/links/schemas';
import { linkNotFound, visitAnswer } from '#shared/view/link-page';

/**
 * `GET /go/{code}` (the code or the vanity, any case): a 302 to the destination with one view
 * counted; a protected link's 302 to its password page (`/view/url/{id}`); unknown, disabled or out
 * of views: the same 404. One GetItem and at most one UpdateItem (docs/scale.md).
 */
export const handler = defineHandler(async (request) => {
  const name = request.pathParameters.code;
  if (name === undefined || !LINK_NAME.accepts(name)) return linkNotFound(request);
  return visitAnswer(request, await visitLink(name));
});
