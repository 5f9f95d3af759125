import { type Route, routes } from '#shared/routes';

/** A concrete URL for a route (path parameters filled with an id that names nobody). */
export function urlFor(route: Route, id = '00000000-0000-4000-8000-000000000000'): string {
  return route.path.replace(/\{\w+\}/g, encodeURIComponent(id));
}

export const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Every route of the table, as `[label, route]` rows for `test.each`. */
export const everyRoute = routes.map((route) => [`${route.method} ${route.path}`, route] as const);

/** Routes whose requests change state (the ones a cross-site page could abuse with a cookie). */
export const writeRoutes = everyRoute.filter(([, route]) => !SAFE_METHODS.has(route.method));

/**
 * Routes that answer without authentication (first run, login, sign-in with a provider or a passkey,
 * public downloads and view pages, healthcheck).
 */
export const PUBLIC_HANDLERS = new Set([
  'setup/get',
  'setup/post',
  'auth/login',
  'server/public',
  'auth/oauth-start',
  'auth/oauth-callback',
  'auth/totp',
  'auth/passkey-options',
  'auth/passkey-sign-in',
  'files/raw',
  'view/page',
  'view/unlock',
  'view/oembed',
  'health/check',
]);

/** Write routes whose handlers read a JSON body (the others read none, or multipart). */
export const jsonBodyRoutes = writeRoutes.filter(([, route]) =>
  [
    'auth/login',
    'setup/post',
    'user/patch',
    'users/create',
    'users/patch',
    'users/delete',
    'files/patch',
    'files/upload-start',
    'user/oauth-unlink',
    'auth/oauth-unlink',
    'user/mfa-totp-enable',
    'user/mfa-totp-disable',
    'user/passkeys-register',
    'user/passkeys-rename',
    'auth/passkey-sign-in',
    'auth/totp',
  ].includes(route.handler),
);
