import { defineHandler } from '#shared/http/handler';
import { PUBLIC_NAME, pathId } from '#shared/validation/ids';
import { viewPageAnswer, withRefusalPage } from '#shared/view/answer';
import { openViewPage } from '#shared/view/file/open';

/**
 * A file's public view page (`/view/{name}`, the link uploads hand out while the owner has view
 * pages enabled): server-rendered HTML, no script. A GET counts one view; HEAD counts none.
 * Query parameters are ignored (cache-busters, as on every route). Where the page is refused
 * (a protected file among the rest), a browser gets the refusal page with the password form.
 */
export const handler = defineHandler((request) =>
  withRefusalPage(request, { triedPassword: false }, async () => {
    const name = pathId(request, 'name', PUBLIC_NAME);
    const page = await openViewPage(name, { head: request.method === 'HEAD' });
    return viewPageAnswer(request, name, page);
  }),
);
