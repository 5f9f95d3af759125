import { SAFE_METHODS } from '#shared/http/methods';
import { checksOrigin, type Route } from '#shared/routes/route';
import { routes } from '#shared/routes/table';

/** A concrete URL for a route (path parameters filled with an id that names nobody). */
export function urlFor(route: Route, id = '00000000-0000-4000-8000-000000000000'): string {
  return route.path.replace(/\{\w+\}/g, encodeURIComponent(id));
}

/** Every route of the table, as `[label, route]` rows for `test.each`. */
export const everyRoute = routes.map((route) => [`${route.method} ${route.path}`, route] as const);

/** Routes whose requests change state (the ones a cross-site page could abuse with a cookie). */
export const writeRoutes = everyRoute.filter(([, route]) => !SAFE_METHODS.has(route.method));

/** Writes authenticated by the session cookie: the ones the CSRF origin check guards. */
export const cookieWriteRoutes = writeRoutes.filter(([, route]) => checksOrigin(route));

/**
 * Routes that answer without authentication (first run, login, sign-in with a provider or a passkey,
 * public downloads and view pages, healthcheck): the table's `public` caller column.
 */
export const PUBLIC_HANDLERS = new Set(
  routes.filter((route) => route.caller === 'public').map((route) => route.handler),
);

/** Write routes whose handlers read a JSON body (the others read none, a form, or multipart). */
export const jsonBodyRoutes = writeRoutes.filter(([, route]) => route.body === 'json');
