import { authenticate } from '#shared/auth/authenticate';
import { defineHandler } from '#shared/http/handler';
import { json } from '#shared/http/response';
import { ziplineLinkedProviders } from '#shared/oauth/linked';

/**
 * The caller's linked provider accounts, as Zipline's `GET /api/auth/oauth` lists them (issue 33).
 * Read consistently: the list is what a link or unlink a moment ago changed.
 */
export const handler = defineHandler(async (request) => {
  const { user } = await authenticate(request, { consistent: true });
  return json(200, ziplineLinkedProviders(user));
});
