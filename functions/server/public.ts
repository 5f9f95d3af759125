import { OAUTH_PROVIDERS, oauthConfig } from '#shared/config/oauth';
import { CHUNK_SIZE_TEXT } from '#shared/files/upload/chunked/limits';
import { defineHandler } from '#shared/http/handler';
import { json } from '#shared/http/response';
import { parseByteSize } from '#shared/quota';
import { currentSettings } from '#shared/settings/current';
import { isSetupDone } from '#shared/users/creation';

/**
 * `GET /api/server/public` (no authentication), as Zipline 4.4's: what a client or the sign-in page
 * needs before anyone signs in. Only what exists here; what Zipline has and this service does not
 * is left out (docs/oauth.md). `signInProviders` is this service's own: the buttons' names.
 */
export const handler = defineHandler(async () => {
  const { providers, signup } = oauthConfig();
  const enabled = (id: string) => providers.some((provider) => provider.id === id);
  const settings = await currentSettings();
  const maxFileSize = settings.filesMaxFileSize;
  return json(200, {
    // The password form is always offered: no provider replaces it.
    oauth: { bypassLocalLogin: false, loginOnly: false },
    oauthEnabled: Object.fromEntries(OAUTH_PROVIDERS.map((id) => [id, enabled(id)])),
    signInProviders: providers.map(({ id, name }) => ({ id, name })),
    // The run-time settings' (issue 38, docs/settings.md): at most 10 s old.
    website: { title: settings.websiteTitle, loginText: settings.websiteLoginText },
    features: {
      oauthRegistration: signup,
      userRegistration: settings.featuresUserRegistration,
      invites: settings.invitesEnabled,
    },
    domains: settings.domains,
    mfa: { passkeys: true },
    // The setting, else S3's largest object, which the chunked and presigned uploads reach (a quota
    // may allow less); not read from files/ here, whose modules need the bucket this function lacks.
    files: {
      maxFileSize: maxFileSize ?? '5tb',
      maxFileBytes: (maxFileSize && parseByteSize(maxFileSize)) ?? 5 * 1024 ** 4,
      defaultFormat: settings.filesDefaultFormat,
      defaultExpiration: settings.filesDefaultExpiration,
      disabledExtensions: settings.filesDisabledExtensions,
    },
    // The chunk size the upload routes are made for (files/upload/chunked/limits.ts); files from this
    // size up go in chunks.
    chunks: { enabled: true, max: CHUNK_SIZE_TEXT, size: CHUNK_SIZE_TEXT },
    firstSetup: !(await isSetupDone()),
  });
});
