import { defineHandler } from '#shared/http/handler';
import { requestOrigin } from '#shared/http/origin';
import { html } from '#shared/http/response';
import { PUBLIC_NAME, pathId } from '#shared/validation/ids';
import { openViewPage } from '#shared/view/open';
import { renderViewPage } from '#shared/view/page';

/**
 * A file's public view page (`/view/{name}`, the link uploads hand out while the owner has view
 * pages enabled): server-rendered HTML, no script. A GET counts one view; HEAD counts none.
 * Query parameters are ignored (cache-busters, as on every route).
 */
export const handler = defineHandler(async (request) => {
  const name = pathId(request, 'name', PUBLIC_NAME);
  const page = await openViewPage(name, { head: request.method === 'HEAD' });
  const origin = requestOrigin(request);
  const { html: body, csp } = renderViewPage(page, {
    page: `${origin}/view/${encodeURIComponent(name)}`,
    oembed: `${origin}/api/oembed/${encodeURIComponent(name)}`,
  });
  return html(200, body, csp);
});
