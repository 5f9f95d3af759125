/**
 * What a line of the route table says (routes/table.ts) and what follows from its columns: who may
 * call decides whether the function reads the service keys and the caller's user item, and which
 * writes need the CSRF origin check; the body column is what the tests send each route.
 */
import { type HttpMethod, SAFE_METHODS } from '#shared/http/methods';
import type { BucketAccess, SetupCodeAccess, SignInProviderAccess, TableAccess } from '#shared/routes/grants';

export type { HttpMethod } from '#shared/http/methods';
/** What a route answers: its method, and HEAD beside every GET. */
export type RouteMethod = HttpMethod | 'HEAD';

/** Who may call: anyone; a signed-in user (cookie or token); an administrator (checked by the handler). */
export type Caller = 'public' | 'signed-in' | 'admin';
/** What the handler reads of the request body. */
export type Body = 'json' | 'multipart' | 'form' | 'none';
/**
 * The nested stack a route's function belongs to (issue 32). Later areas join as their routes
 * arrive: links (short URLs, issue 34: its API and its public redirect pages), library (folders, tags), home (stats, sessions, export), instance
 * (settings, invites).
 */
export type Area = 'account' | 'admin' | 'files' | 'public' | 'links';

export interface Route {
  method: HttpMethod;
  /** API Gateway path syntax: `{name}` is a path parameter. */
  path: string;
  /** Module under `functions/` (without extension) exporting `handler`. */
  handler: string;
  caller: Caller;
  body: Body;
  area: Area;
  /** DynamoDB access the handler needs; absent means none. */
  table?: TableAccess;
  /** Imports bcrypt: the bundle carries the native binary and the function gets more memory. */
  hashesPasswords: boolean;
  /**
   * The native module its bundle carries besides bcrypt (the linux-arm64 binary from infra/native),
   * as an object-event function's `native` (routes/background.ts): `sharp` decodes images, and the
   * function gets the image class's memory and time.
   */
  native?: 'sharp';
  /** Reads the service keys (session seal password, token key). */
  usesKeys: boolean;
  /** Access to the files bucket; absent means none (and the function gets no BUCKET_NAME). */
  bucket?: BucketAccess;
  /** What it knows of the sign-in providers (issue 15); absent means nothing. */
  oauth?: SignInProviderAccess;
  /** Runs a passkey ceremony: knows the relying party (`PASSKEY_ORIGIN`, the dashboard's origin). */
  passkeys?: true;
  /** First-run setup's one-time code: says whether one is needed, or also checks it (reads it). */
  setupCode?: SetupCodeAccess;
}

/**
 * What a route's function needs besides what its caller column implies; absent means none. The
 * names are the Route's, so a flag has one name from the table to the stack. `usesKeys` is for
 * public routes only (login, a provider sign-in, a passkey sign-in: they seal a session).
 */
export type Needs = Partial<
  Pick<Route, 'table' | 'bucket' | 'oauth' | 'passkeys' | 'setupCode' | 'native'> & {
    hashesPasswords: true;
    usesKeys: true;
  }
>;

/** Reading the caller's user item (its USER partition): every authenticated route does it. */
const CALLER_READ = ['USER'] as const;

/** The route's own table access with the caller's read added in front. */
function withCallerRead(table: TableAccess = {}): TableAccess {
  const { GetItem = [], ...others } = table.items ?? {};
  const reads = [...new Set([...CALLER_READ, ...GetItem])];
  return { ...table, items: { GetItem: reads, ...others } };
}

/** One route: a line of the table, so a search for method and path finds its handler too. */
export function route(
  method: HttpMethod,
  path: string,
  handler: string,
  caller: Caller,
  body: Body,
  area: Area,
  needs: Needs = {},
): Route {
  const signedIn = caller !== 'public';
  const table = signedIn ? withCallerRead(needs.table) : needs.table;
  return {
    method,
    path,
    handler,
    caller,
    body,
    area,
    ...(table ? { table } : {}),
    hashesPasswords: needs.hashesPasswords === true,
    // A signed-in caller's cookie or token is checked against the keys.
    usesKeys: signedIn || needs.usesKeys === true,
    ...(needs.bucket ? { bucket: needs.bucket } : {}),
    ...(needs.oauth ? { oauth: needs.oauth } : {}),
    ...(needs.passkeys ? { passkeys: true } : {}),
    ...(needs.setupCode ? { setupCode: needs.setupCode } : {}),
    ...(needs.native ? { native: needs.native } : {}),
  };
}

/**
 * Every GET route also answers HEAD (link checkers, `curl -I`, uptime monitors): the same function,
 * the GET's status and headers, no body (`defineHandler` drops it).
 */
export const methodsOf = (route: Route): RouteMethod[] =>
  route.method === 'GET' ? ['GET', 'HEAD'] : [route.method];

/** A write the session cookie authenticates: refused when a browser sends it from another site. */
export const checksOrigin = (route: Route): boolean =>
  route.caller !== 'public' && !SAFE_METHODS.has(route.method);
