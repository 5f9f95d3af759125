import { authenticate } from '#shared/auth/authenticate';
import { defineHandler } from '#shared/http/handler';
import { json } from '#shared/http/response';
import { toOneLinkResource } from '#shared/links/resources';
import { getLink, requireLink } from '#shared/links/store';
import { LINK_ID, pathId } from '#shared/validation/ids';

/** `GET /api/user/urls/{id}`: the caller's link; another user's is as unknown (404). */
export const handler = defineHandler(async (request) => {
  const { user } = await authenticate(request);
  const link = requireLink(await getLink(user.id, pathId(request, 'id', LINK_ID)));
  return json(200, await toOneLinkResource(link));
});
