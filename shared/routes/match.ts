/** Finding the route of a request: the local runner's dispatch and the `$default` fallback. */
import { methodsOf, type Route, type RouteMethod } from '#shared/routes/route';
import { routes } from '#shared/routes/table';

/** Answers unmatched requests (API Gateway's `$default` route) with 404/405 in the error format. */
export const FALLBACK_HANDLER = 'fallback';

export type RouteMatch =
  | { kind: 'route'; route: Route; pathParameters: Record<string, string> }
  | { kind: 'method_not_allowed'; allow: RouteMethod[] }
  | { kind: 'not_found' };

/**
 * Fewer path parameters first, as API Gateway prefers the most specific route: `PATCH
 * /api/user/files/transaction` is that route, not `PATCH /api/user/files/{id}` with id `transaction`.
 */
const compiled = routes
  .map((route) => ({
    route,
    names: [...route.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1] as string),
    pattern: new RegExp(`^${route.path.replace(/\{\w+\}/g, '([^/]+)')}/?$`),
  }))
  .sort((a, b) => a.names.length - b.names.length);

export function matchRoute(method: string, path: string): RouteMatch {
  const allow: RouteMethod[] = [];
  for (const { route, names, pattern } of compiled) {
    const match = pattern.exec(path);
    if (!match) continue;
    const methods = methodsOf(route);
    if (!methods.includes(method as RouteMethod)) {
      allow.push(...methods);
      continue;
    }
    const pathParameters: Record<string, string> = {};
    try {
      names.forEach((name, index) => {
        pathParameters[name] = decodeURIComponent(match[index + 1] as string);
      });
    } catch {
      return { kind: 'not_found' };
    }
    return { kind: 'route', route, pathParameters };
  }
  return allow.length ? { kind: 'method_not_allowed', allow } : { kind: 'not_found' };
}
