import { authenticate } from '#shared/auth/authenticate';
import { defineHandler } from '#shared/http/handler';
import { json } from '#shared/http/response';
import { SERVICE_VERSION } from '#shared/version';

/**
 * The running version, for signed-in clients (as in Zipline, anonymous callers learn nothing that
 * would help target a known flaw). `details.version` repeats it where Zipline clients read it.
 */
export const handler = defineHandler(async (request) => {
  await authenticate(request);
  return json(200, { version: SERVICE_VERSION, details: { version: SERVICE_VERSION } });
});
