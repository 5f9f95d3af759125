import { authenticate } from '#shared/auth/authenticate';
import { defineHandler } from '#shared/http/handler';
import { json } from '#shared/http/response';
import { deleteLink } from '#shared/links/changes';
import { toLinkResource } from '#shared/links/model';
import { linkViews } from '#shared/links/views';
import { LINK_ID, pathId } from '#shared/validation/ids';

/** `DELETE /api/user/urls/{id}`: answers the link as it was (its views read before it went). */
export const handler = defineHandler(async (request) => {
  const { user } = await authenticate(request);
  const linkId = pathId(request, 'id', LINK_ID);
  const views = await linkViews([linkId]);
  const link = await deleteLink(user.id, linkId);
  return json(200, toLinkResource(link, views.get(linkId) ?? 0));
});
