import { defineHandler } from '#shared/http/handler';
import { json } from '#shared/http/response';
import { startLink } from '#shared/oauth/link';

/**
 * Starts linking a provider to the signed-in account (settings): `{url}` of the provider's sign-in
 * page, where the dashboard sends the browser, and the flow cookie. The session cookie only (403 for
 * a token), from the service's own pages (403 for another site's).
 */
export const handler = defineHandler(async (request) => {
  const started = await startLink(request, request.pathParameters.provider ?? '');
  return json(200, { url: started.url }, { cookies: started.cookies });
});
