import { OAUTH_PROVIDERS, oauthConfig } from '#shared/config';
import { defineHandler } from '#shared/http/handler';
import { json } from '#shared/http/response';
import { isSetupDone } from '#shared/users/creation';

/**
 * The chunk size a client may send to the chunked upload (Zipline's `chunks.size`, which its web
 * uploader and careful clients read): well inside the upload function's 4 MiB body limit with its
 * multipart envelope (tests/http/server-public.test.ts sends a chunk of this size). Files from this
 * size up go in chunks (`chunks.max`).
 */
const CHUNK_MIB = 3;

/**
 * `GET /api/server/public` (no authentication), as Zipline 4.4's: what a client or the sign-in page
 * needs before anyone signs in. Only what exists here; what Zipline has and this service does not
 * is left out (docs/oauth.md). `signInProviders` is this service's own: the buttons' names.
 */
export const handler = defineHandler(async () => {
  const { providers, signup } = oauthConfig();
  const enabled = (id: string) => providers.some((provider) => provider.id === id);
  return json(200, {
    // The password form is always offered: no provider replaces it.
    oauth: { bypassLocalLogin: false, loginOnly: false },
    oauthEnabled: Object.fromEntries(OAUTH_PROVIDERS.map((id) => [id, enabled(id)])),
    signInProviders: providers.map(({ id, name }) => ({ id, name })),
    website: { title: 'File service' },
    features: { oauthRegistration: signup, userRegistration: false },
    mfa: { passkeys: true },
    // S3's largest object, which the chunked and presigned uploads reach (a quota may allow less);
    // not read from files/ here, whose modules need the bucket this function is not given.
    files: { maxFileSize: '5tb', defaultFormat: 'random' },
    chunks: { enabled: true, max: `${CHUNK_MIB}mb`, size: `${CHUNK_MIB}mb` },
    firstSetup: !(await isSetupDone()),
  });
});
