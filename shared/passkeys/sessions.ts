import { forbidden } from '#shared/errors';

export const PASSKEY_NEEDS_SESSION =
  'passkeys are added from the dashboard: sign in with the session cookie, not the API token';

/**
 * Adding a passkey needs the session cookie: an API token (kept in uploader configs) must not be
 * enough to give its holder a passkey, and with it a dashboard sign-in.
 */
export function requireSession(via: 'cookie' | 'token'): void {
  if (via !== 'cookie') throw forbidden(PASSKEY_NEEDS_SESSION);
}
