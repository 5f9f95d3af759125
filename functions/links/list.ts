import { authenticate } from '#shared/auth/authenticate';
import { defineHandler } from '#shared/http/handler';
import { json } from '#shared/http/response';
import { toLinkResources } from '#shared/links/resources';
import { listLinks } from '#shared/links/store';
import { readLinkSearch } from '#shared/validation/links/schemas';

/**
 * `GET /api/user/urls` (Zipline's): every link of the caller, newest first; with `searchQuery`, those
 * whose `searchField` (destination, vanity or code; destination by default) contains it, ignoring case.
 */
export const handler = defineHandler(async (request) => {
  const { user } = await authenticate(request);
  const search = readLinkSearch(request.query);
  let links = await listLinks(user.id);
  if (search) {
    const needle = search.text.toLowerCase();
    links = links.filter((link) => (link[search.field] ?? '').toLowerCase().includes(needle));
  }
  return json(200, await toLinkResources(links));
});
