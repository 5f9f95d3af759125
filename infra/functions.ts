import { bucketAccess, FALLBACK_HANDLER, type Route, routes } from '#shared/routes';

/** One Lambda function: a handler module and what it needs, merged over every route it serves. */
export interface FunctionSpec {
  /** Construct id, from the module name (`user/token-get` → `UserTokenGet`). */
  id: string;
  /** Module under `functions/` exporting `handler`. */
  handler: string;
  /** API routes it answers; empty for the `$default` fallback. */
  routes: Route[];
  table: Route['table'];
  bucket: NonNullable<Route['bucket']>;
  hashesPasswords: boolean;
  usesKeys: boolean;
}

/** Access levels from least to most; a function serving several routes gets the highest. */
const ACCESS_ORDER = ['none', 'read', 'write'] as const;
type Access = (typeof ACCESS_ORDER)[number];
const widest = (a: Access, b: Access): Access => (ACCESS_ORDER.indexOf(a) >= ACCESS_ORDER.indexOf(b) ? a : b);

export function constructId(handler: string): string {
  return handler
    .split(/[/-]/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}

/**
 * One spec per handler module of the route table (routes sharing a module, such as GET and POST
 * logout, share a function that gets the union of their needs), plus the fallback for `$default`.
 */
export function functionSpecs(table: readonly Route[] = routes): FunctionSpec[] {
  const byHandler = new Map<string, FunctionSpec>();
  for (const route of table) {
    const spec = byHandler.get(route.handler);
    if (!spec) {
      byHandler.set(route.handler, {
        id: constructId(route.handler),
        handler: route.handler,
        routes: [route],
        table: route.table,
        bucket: bucketAccess(route),
        hashesPasswords: route.hashesPasswords,
        usesKeys: route.usesKeys,
      });
      continue;
    }
    spec.routes.push(route);
    spec.table = widest(spec.table, route.table);
    spec.bucket = widest(spec.bucket, bucketAccess(route));
    spec.hashesPasswords ||= route.hashesPasswords;
    spec.usesKeys ||= route.usesKeys;
  }
  return [
    ...byHandler.values(),
    {
      id: constructId(FALLBACK_HANDLER),
      handler: FALLBACK_HANDLER,
      routes: [],
      table: 'none',
      bucket: 'none',
      hashesPasswords: false,
      usesKeys: false,
    },
  ];
}
