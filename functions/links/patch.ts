import { authenticate } from '#shared/auth/authenticate';
import { hashOptionalPassword } from '#shared/auth/password';
import { defineHandler } from '#shared/http/handler';
import { readJson } from '#shared/http/request';
import { json } from '#shared/http/response';
import { type LinkChanges, updateLink } from '#shared/links/changes';
import { toOneLinkResource } from '#shared/links/resources';
import { getLink, requireLink } from '#shared/links/store';
import { readFilePassword } from '#shared/validation/files/schemas';
import { LINK_ID, pathId } from '#shared/validation/ids';
import { patchLinkSchema } from '#shared/validation/links/schemas';

/**
 * `PATCH /api/user/urls/{id}`: destination, vanity, maxViews, password (`""`/null removes it) and
 * enabled, as Zipline's edit sends them; `{}` changes nothing. Another user's link: 404.
 */
export const handler = defineHandler(async (request) => {
  const { user } = await authenticate(request);
  // The body first, as every JSON route reads it: a malformed one is 400 whatever the path names.
  const { password, ...fields } = readJson(request, patchLinkSchema);
  const linkId = pathId(request, 'id', LINK_ID);
  const changes: LinkChanges = { ...fields };
  if (password !== undefined) {
    changes.passwordHash = await hashOptionalPassword(readFilePassword(password, 'password'));
  }
  const link =
    Object.keys(changes).length > 0
      ? await updateLink(user.id, linkId, changes)
      : requireLink(await getLink(user.id, linkId));
  return json(200, await toOneLinkResource(link));
});
