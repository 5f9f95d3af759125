import {
  type InvokedFunction,
  invokedFunctions,
  type ObjectEventFunction,
  type ObjectEventType,
  objectEventFunctions,
  type ScheduledFunction,
  type StreamFunction,
  scheduledFunctions,
  streamFunctions,
} from '#shared/routes/background';
import type {
  BucketAccess,
  ObjectPrefix,
  SetupCodeAccess,
  SignInProviderAccess,
  TableAccess,
  TableAction,
} from '#shared/routes/grants';
import { FALLBACK_HANDLER } from '#shared/routes/match';
import type { Area, Route } from '#shared/routes/route';
import { routes } from '#shared/routes/table';

/** One Lambda function: a handler module and what it needs, merged over every route it serves. */
export interface FunctionSpec {
  /** Construct id, from the module name (`user/token-get` → `UserTokenGet`). */
  id: string;
  /** Module under `functions/` exporting `handler`. */
  handler: string;
  /** API routes it answers; empty for the `$default` fallback. */
  routes: Route[];
  /** Its routes' area (nested stack); none for the background functions and the fallback (parent stack). */
  area?: Area;
  /** Union of its routes' table access (empty: no table). */
  table: TableAccess;
  /** Union of its routes' bucket access (empty: no bucket). */
  bucket: BucketAccess;
  hashesPasswords: boolean;
  usesKeys: boolean;
  /** Knows the sign-in providers (`providers`), and reads their client secrets (`secrets`). */
  oauth: SignInProviderAccess | undefined;
  /** Runs a passkey ceremony: gets the dashboard's origin (`PASSKEY_ORIGIN`). */
  passkeys: boolean;
  /** Knows first-run setup's code (`announces`: that there is one; `checks`: reads it). */
  setupCode: SetupCodeAccess | undefined;
  /** The native module its bundle carries besides bcrypt: sharp (the thumbnails, the direct upload). */
  native: Route['native'];
  /** Its bundle carries ffmpeg's binary (the thumbnail function's videos). */
  ffmpeg?: boolean;
  /** S3 starts it on these events for objects under this prefix (no API route). */
  objectEvents?: { prefix: ObjectPrefix; events: readonly ObjectEventType[] };
  /** A long run (the export): Lambda's longest timeout, this memory, no reserved concurrency. */
  longRun?: { memoryMb: number };
  /** A schedule starts it every this many minutes (no API route). */
  everyMinutes?: number;
  /** A scheduled function that reserves no concurrency (routes/background.ts `unreserved`). */
  unreserved?: true;
  /** Invoked asynchronously by these handlers' functions (no API route), within this many seconds. */
  invoked?: { by: readonly string[]; timeoutSeconds: number };
  /** The table's stream feeds it, with these filters and batches (no API route). */
  tableStream?: Omit<StreamFunction, 'handler' | 'table'>;
  /** Announces uploads or links: may invoke the webhook deliverer (background.ts). */
  emitsWebhooks: boolean;
}

export function constructId(handler: string): string {
  return handler
    .split(/[/-]/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}

const union = <T extends string>(a: readonly T[] = [], b: readonly T[] = []): T[] =>
  [...new Set([...a, ...b])].sort();

/** Per action, the union of both grants' values (partitions or key prefixes). */
function mergeGrants<A extends string, V extends string>(
  a: Partial<Record<A, readonly V[]>> = {},
  b: Partial<Record<A, readonly V[]>> = {},
): Partial<Record<A, V[]>> {
  const merged: Partial<Record<A, V[]>> = {};
  for (const action of union(Object.keys(a) as A[], Object.keys(b) as A[])) {
    merged[action] = union(a[action], b[action]);
  }
  return merged;
}

function mergeTable(a: TableAccess, b: TableAccess = {}): TableAccess {
  const items = mergeGrants<TableAction, string>(a.items, b.items) as TableAccess['items'];
  const indexes = union(a.indexes, b.indexes);
  return { ...(Object.keys(items ?? {}).length ? { items } : {}), ...(indexes.length ? { indexes } : {}) };
}

/** True when the function touches the table at all. */
export const usesTable = (spec: FunctionSpec) =>
  Object.keys(spec.table.items ?? {}).length > 0 || (spec.table.indexes ?? []).length > 0;
/** Started by a schedule, S3 or another function, never by the API (no route, no viewer headers). */
export const isBackground = (spec: FunctionSpec) =>
  spec.everyMinutes !== undefined ||
  spec.objectEvents !== undefined ||
  spec.invoked !== undefined ||
  spec.tableStream !== undefined;

export const usesBucket = (spec: FunctionSpec) => Object.keys(spec.bucket).length > 0;

/** A function before any route or object event says what it needs. */
const bareSpec = (handler: string): FunctionSpec => ({
  id: constructId(handler),
  handler,
  routes: [],
  table: {},
  bucket: {},
  hashesPasswords: false,
  usesKeys: false,
  oauth: undefined,
  passkeys: false,
  setupCode: undefined,
  native: undefined,
  emitsWebhooks: false,
});

/**
 * One spec per handler module of the route table (routes sharing a module, such as GET and POST
 * logout, share a function that gets the union of their needs), plus the fallback for `$default`.
 */
export function functionSpecs(
  table: readonly Route[] = routes,
  objectEvents: readonly ObjectEventFunction[] = objectEventFunctions,
  scheduled: readonly ScheduledFunction[] = scheduledFunctions,
  invoked: readonly InvokedFunction[] = invokedFunctions,
  streams: readonly StreamFunction[] = streamFunctions,
): FunctionSpec[] {
  const byHandler = new Map<string, FunctionSpec>();
  for (const route of table) {
    const spec = byHandler.get(route.handler) ?? bareSpec(route.handler);
    spec.routes.push(route);
    spec.area = route.area;
    spec.table = mergeTable(spec.table, route.table);
    spec.bucket = mergeGrants(spec.bucket, route.bucket);
    spec.hashesPasswords ||= route.hashesPasswords;
    spec.usesKeys ||= route.usesKeys;
    spec.passkeys ||= route.passkeys === true;
    spec.native ??= route.native;
    if (route.oauth && spec.oauth !== 'secrets') spec.oauth = route.oauth;
    if (route.setupCode && spec.setupCode !== 'checks') spec.setupCode = route.setupCode;
    spec.emitsWebhooks = invoked.some((fn) => fn.invokedBy.includes(route.handler));
    byHandler.set(route.handler, spec);
  }
  return [
    ...byHandler.values(),
    ...objectEvents.map((fn) => ({
      ...bareSpec(fn.handler),
      table: mergeTable({}, fn.table),
      bucket: mergeGrants({}, fn.bucket),
      native: fn.native,
      ffmpeg: fn.ffmpeg === true,
      objectEvents: { prefix: fn.prefix, events: fn.events },
      ...(fn.longRun ? { longRun: fn.longRun } : {}),
    })),
    ...scheduled.map((fn) => ({
      ...bareSpec(fn.handler),
      table: mergeTable({}, fn.table),
      bucket: mergeGrants({}, fn.bucket),
      everyMinutes: fn.everyMinutes,
      ...(fn.unreserved ? { unreserved: fn.unreserved } : {}),
    })),
    ...invoked.map((fn) => ({
      ...bareSpec(fn.handler),
      table: mergeTable({}, fn.table),
      invoked: { by: fn.invokedBy, timeoutSeconds: fn.timeoutSeconds },
    })),
    ...streams.map(({ handler, table, ...tableStream }) => ({
      ...bareSpec(handler),
      table: mergeTable({}, table),
      tableStream,
    })),
    bareSpec(FALLBACK_HANDLER),
  ];
}
