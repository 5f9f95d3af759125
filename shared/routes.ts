/**
 * The one route table. The CDK stack builds a function and an API route from each entry, the local
 * runner and the tests dispatch through it, so the three cannot drift apart.
 */
import { type Partition, USERS_INDEX } from '#shared/db/keys';
import { SEARCH_INDEX, SORT_INDEXES } from '#shared/files/indexing';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
/** What a route answers: its method, and HEAD beside every GET. */
export type RouteMethod = HttpMethod | 'HEAD';

/** DynamoDB item actions (a transaction is authorized by the actions of its items). */
export type TableAction =
  | 'GetItem'
  | 'BatchGetItem'
  | 'Query'
  | 'PutItem'
  | 'UpdateItem'
  | 'DeleteItem'
  | 'BatchWriteItem'
  | 'ConditionCheckItem';

/**
 * A route's DynamoDB access: per action, the kinds of partition it touches (their keys' patterns are
 * `PARTITION_PATTERNS` in db/keys.ts); and the indexes it queries. The stack grants exactly this.
 */
export interface TableAccess {
  items?: Partial<Record<TableAction, readonly Partition[]>>;
  indexes?: readonly string[];
}

/**
 * S3 actions on the files bucket (HeadObject and presigned GETs are GetObject, DeleteObjects is
 * DeleteObject; a PUT that tags its object also needs PutObjectTagging).
 */
export type BucketAction = 'GetObject' | 'PutObject' | 'PutObjectTagging' | 'DeleteObject' | 'ListBucket';

/**
 * Key prefixes of the bucket (layout in files/layout.ts; `uploads/` holds staged chunks and what
 * earlier versions left; `thumbnails/` the WebP previews of images).
 */
export type ObjectPrefix = 'files/' | 'uploads/' | 'thumbnails/';

/**
 * A route's access to the files bucket: per action, the key prefixes (for ListBucket: the listed
 * prefixes). A presigned URL carries the function's own permission, so it needs the grant it hands out.
 */
export type BucketAccess = Partial<Record<BucketAction, readonly ObjectPrefix[]>>;

export interface Route {
  method: HttpMethod;
  /** API Gateway path syntax: `{name}` is a path parameter. */
  path: string;
  /** Module under `functions/` (without extension) exporting `handler`. */
  handler: string;
  /** DynamoDB access the handler needs; absent means none. */
  table?: TableAccess;
  /** Imports bcrypt: the bundle carries the native binary and the function gets more memory. */
  hashesPasswords: boolean;
  /** Reads the service keys (session seal password, token key). */
  usesKeys: boolean;
  /** Access to the files bucket; absent means none (and the function gets no BUCKET_NAME). */
  bucket?: BucketAccess;
}

/** Every index a file listing may read: the sort orders', the ones deep pages skip over, search's. */
const FILE_INDEXES = [
  ...new Set([
    ...Object.values(SORT_INDEXES).flatMap(({ index, skipIndex }) =>
      index ? [index, skipIndex] : [skipIndex],
    ),
    SEARCH_INDEX,
  ]),
];

/** Reading the caller's user item: every authenticated route does it. */
const SIGNED_IN = ['USER'] as const satisfies readonly Partition[];

export const routes: readonly Route[] = [
  {
    method: 'GET',
    path: '/api/healthcheck',
    handler: 'health/check',
    // One GetItem proves the table answers.
    table: { items: { GetItem: ['SETUP'] } },
    hashesPasswords: false,
    usesKeys: false,
  },
  {
    method: 'GET',
    path: '/api/version',
    handler: 'health/version',
    table: { items: { GetItem: SIGNED_IN } },
    hashesPasswords: false,
    usesKeys: true,
  },
  {
    method: 'POST',
    path: '/api/auth/login',
    handler: 'auth/login',
    table: {
      items: { GetItem: ['USER', 'USERNAME'], UpdateItem: ['USER', 'THROTTLE'], DeleteItem: ['THROTTLE'] },
    },
    hashesPasswords: true,
    usesKeys: true,
  },
  {
    method: 'POST',
    path: '/api/auth/logout',
    handler: 'auth/logout',
    table: { items: { GetItem: SIGNED_IN, UpdateItem: ['USER'] } },
    hashesPasswords: false,
    usesKeys: true,
  },
  {
    method: 'GET',
    path: '/api/auth/logout',
    handler: 'auth/logout',
    table: { items: { GetItem: SIGNED_IN, UpdateItem: ['USER'] } },
    hashesPasswords: false,
    usesKeys: true,
  },
  {
    method: 'GET',
    path: '/api/setup',
    handler: 'setup/get',
    table: { items: { GetItem: ['SETUP'] } },
    hashesPasswords: false,
    usesKeys: false,
  },
  {
    method: 'POST',
    path: '/api/setup',
    handler: 'setup/post',
    table: {
      items: {
        GetItem: ['SETUP'],
        PutItem: ['USER', 'USERNAME', 'USERLIKE', 'SETUP'],
        ConditionCheckItem: ['USERNAME'],
        UpdateItem: ['THROTTLE'],
      },
    },
    hashesPasswords: true,
    usesKeys: false,
  },
  {
    method: 'GET',
    path: '/api/user',
    handler: 'user/get',
    table: { items: { GetItem: SIGNED_IN } },
    hashesPasswords: false,
    usesKeys: true,
  },
  {
    method: 'PATCH',
    path: '/api/user',
    handler: 'user/patch',
    table: {
      items: {
        GetItem: SIGNED_IN,
        UpdateItem: ['USER', 'THROTTLE'],
        PutItem: ['USER', 'USERNAME', 'USERLIKE'],
        ConditionCheckItem: ['USERNAME'],
        DeleteItem: ['USER', 'USERNAME', 'USERLIKE'],
      },
    },
    hashesPasswords: true,
    usesKeys: true,
  },
  {
    method: 'GET',
    path: '/api/user/avatar',
    handler: 'user/avatar',
    table: { items: { GetItem: SIGNED_IN, Query: ['USER'] } },
    hashesPasswords: false,
    usesKeys: true,
  },
  {
    method: 'GET',
    path: '/api/user/token',
    handler: 'user/token-get',
    table: { items: { GetItem: SIGNED_IN } },
    hashesPasswords: false,
    usesKeys: true,
  },
  {
    method: 'PATCH',
    path: '/api/user/token',
    handler: 'user/token-reset',
    table: { items: { GetItem: SIGNED_IN, UpdateItem: ['USER', 'THROTTLE'] } },
    hashesPasswords: false,
    usesKeys: true,
  },
  {
    method: 'GET',
    path: '/api/users',
    handler: 'users/list',
    table: { items: { GetItem: SIGNED_IN }, indexes: [USERS_INDEX] },
    hashesPasswords: false,
    usesKeys: true,
  },
  {
    method: 'POST',
    path: '/api/users',
    handler: 'users/create',
    table: {
      items: {
        GetItem: SIGNED_IN,
        PutItem: ['USER', 'USERNAME', 'USERLIKE'],
        ConditionCheckItem: ['USERNAME'],
        DeleteItem: ['USER'],
      },
    },
    hashesPasswords: true,
    usesKeys: true,
  },
  {
    method: 'GET',
    path: '/api/users/{id}',
    handler: 'users/get',
    table: { items: { GetItem: SIGNED_IN } },
    hashesPasswords: false,
    usesKeys: true,
  },
  {
    method: 'PATCH',
    path: '/api/users/{id}',
    handler: 'users/patch',
    table: {
      items: {
        GetItem: SIGNED_IN,
        UpdateItem: ['USER'],
        PutItem: ['USER', 'USERNAME', 'USERLIKE'],
        ConditionCheckItem: ['USERNAME'],
        DeleteItem: ['USER', 'USERNAME', 'USERLIKE'],
      },
    },
    hashesPasswords: true,
    usesKeys: true,
  },
  {
    method: 'DELETE',
    path: '/api/users/{id}',
    handler: 'users/delete',
    table: {
      items: {
        GetItem: SIGNED_IN,
        Query: ['USER'],
        UpdateItem: ['USER'],
        DeleteItem: ['USER', 'USERNAME', 'USERLIKE', 'FILENAME'],
        BatchWriteItem: ['USER'],
      },
    },
    hashesPasswords: false,
    usesKeys: true,
    // `{"delete": true}` lists and deletes the user's objects and thumbnails.
    bucket: {
      ListBucket: ['files/', 'uploads/', 'thumbnails/'],
      DeleteObject: ['files/', 'uploads/', 'thumbnails/'],
    },
  },
  {
    method: 'POST',
    path: '/api/upload',
    handler: 'files/upload',
    table: {
      items: {
        GetItem: SIGNED_IN,
        Query: ['USER'],
        ConditionCheckItem: ['USER'],
        PutItem: ['USER', 'FILENAME'],
        UpdateItem: ['USER'],
        DeleteItem: ['USER'],
      },
    },
    // Hashes `x-zipline-password`.
    hashesPasswords: true,
    usesKeys: true,
    // Chunked uploads: the multipart upload is PutObject under files/; chunks too small for a part
    // wait under uploads/ (read back into the part, then deleted).
    bucket: {
      PutObject: ['files/', 'uploads/'],
      GetObject: ['uploads/'],
      DeleteObject: ['files/', 'uploads/'],
    },
  },
  {
    method: 'GET',
    path: '/api/user/files',
    handler: 'files/list',
    table: { items: { GetItem: SIGNED_IN, BatchGetItem: ['USER'], Query: ['USER'] }, indexes: FILE_INDEXES },
    hashesPasswords: false,
    usesKeys: true,
  },
  {
    method: 'POST',
    path: '/api/user/files/uploads',
    handler: 'files/upload-start',
    table: {
      items: {
        GetItem: SIGNED_IN,
        Query: ['USER'],
        ConditionCheckItem: ['USER'],
        PutItem: ['USER'],
        UpdateItem: ['USER'],
        DeleteItem: ['USER'],
      },
    },
    // Hashes `x-zipline-password`.
    hashesPasswords: true,
    usesKeys: true,
    bucket: { PutObject: ['files/'], PutObjectTagging: ['files/'], DeleteObject: ['files/'] },
  },
  {
    method: 'POST',
    path: '/api/user/files/uploads/{id}/complete',
    handler: 'files/upload-complete',
    table: {
      items: {
        GetItem: SIGNED_IN,
        ConditionCheckItem: ['USER'],
        PutItem: ['USER', 'FILENAME'],
        UpdateItem: ['USER'],
        DeleteItem: ['USER'],
      },
    },
    hashesPasswords: false,
    usesKeys: true,
    bucket: {
      GetObject: ['files/'],
      ListBucket: ['files/'],
      PutObjectTagging: ['files/'],
      DeleteObject: ['files/'],
    },
  },
  {
    method: 'GET',
    path: '/api/user/files/{id}',
    handler: 'files/get',
    table: { items: { GetItem: SIGNED_IN } },
    hashesPasswords: false,
    usesKeys: true,
  },
  {
    // The owner's own view of the bytes (dashboard previews and "open"): counts no view.
    method: 'GET',
    path: '/api/user/files/{id}/raw',
    handler: 'files/raw-owner',
    table: { items: { GetItem: SIGNED_IN } },
    hashesPasswords: false,
    usesKeys: true,
    bucket: { GetObject: ['files/'] },
  },
  {
    // The owner's thumbnail of an image (the dashboard's grid): the same function as the owner's raw.
    method: 'GET',
    path: '/api/user/files/{id}/thumbnail',
    handler: 'files/raw-owner',
    table: { items: { GetItem: SIGNED_IN } },
    hashesPasswords: false,
    usesKeys: true,
    bucket: { GetObject: ['thumbnails/'] },
  },
  {
    method: 'PATCH',
    path: '/api/user/files/{id}',
    handler: 'files/patch',
    table: { items: { GetItem: SIGNED_IN, ConditionCheckItem: ['USER'], UpdateItem: ['USER'] } },
    // Hashes a new `password`.
    hashesPasswords: true,
    usesKeys: true,
  },
  {
    method: 'DELETE',
    path: '/api/user/files/{id}',
    handler: 'files/delete',
    table: {
      items: {
        GetItem: SIGNED_IN,
        ConditionCheckItem: ['USER'],
        UpdateItem: ['USER'],
        DeleteItem: ['USER', 'FILENAME'],
      },
    },
    hashesPasswords: false,
    usesKeys: true,
    // The bytes and their thumbnail, in one DeleteObjects.
    bucket: { DeleteObject: ['files/', 'thumbnails/'] },
  },
  {
    method: 'GET',
    path: '/raw/{name}',
    handler: 'files/raw',
    // With `?pw=`: the file's hash is read first, and guesses are counted (THROTTLE).
    table: { items: { GetItem: ['FILENAME', 'USER'], UpdateItem: ['USER', 'THROTTLE'] } },
    // Checks `?pw=` against a protected file's bcrypt hash.
    hashesPasswords: true,
    usesKeys: false,
    bucket: { GetObject: ['files/'] },
  },
  {
    // A file's public view page: counts the view, embeds the bytes through presigned URLs.
    method: 'GET',
    path: '/view/{name}',
    handler: 'view/page',
    // The name claim; the owner's view settings with the file (one BatchGetItem); the view count.
    table: { items: { GetItem: ['FILENAME'], BatchGetItem: ['USER'], UpdateItem: ['USER'] } },
    hashesPasswords: false,
    usesKeys: false,
    // Presigned GETs for the page's media, download and og:image (the thumbnail); a ranged GET for a
    // text file's start.
    bucket: { GetObject: ['files/', 'thumbnails/'] },
  },
  {
    // The view page's password form: a protected file's page, its view counted once the password
    // is right; guesses counted per name (THROTTLE) as on /raw?pw=.
    method: 'POST',
    path: '/view/{name}',
    handler: 'view/unlock',
    table: { items: { GetItem: ['FILENAME', 'USER'], UpdateItem: ['USER', 'THROTTLE'] } },
    hashesPasswords: true,
    usesKeys: false,
    bucket: { GetObject: ['files/', 'thumbnails/'] },
  },
  {
    // The oEmbed answer view pages link to (embeds on): the embed's texts, no view counted.
    method: 'GET',
    path: '/api/oembed/{name}',
    handler: 'view/oembed',
    table: { items: { GetItem: ['FILENAME'], BatchGetItem: ['USER'] } },
    hashesPasswords: false,
    usesKeys: false,
  },
];

/**
 * Every GET route also answers HEAD (link checkers, `curl -I`, uptime monitors): the same function,
 * the GET's status and headers, no body (`defineHandler` drops it).
 */
export const methodsOf = (route: Route): RouteMethod[] =>
  route.method === 'GET' ? ['GET', 'HEAD'] : [route.method];

/**
 * Every upload header Zipline clients send (`x-zipline-*`, and `content-range` for chunked uploads):
 * a browser-based uploader must get past the preflight to hear the handler's answer, even for a
 * header the handler refuses.
 */
export const ZIPLINE_UPLOAD_HEADERS = [
  'x-zipline-deletes-at',
  'x-zipline-format',
  'x-zipline-image-compression-percent',
  'x-zipline-password',
  'x-zipline-max-views',
  'x-zipline-no-json',
  'x-zipline-original-name',
  'x-zipline-folder',
  'x-zipline-filename',
  'x-zipline-domain',
  'x-zipline-file-extension',
  'x-zipline-p-filename',
  'x-zipline-p-content-type',
  'x-zipline-p-identifier',
  'x-zipline-p-lastchunk',
  'x-zipline-p-content-length',
  'content-range',
] as const;

export interface CorsPolicy {
  /** `['*']`, or exactly the allowed origins. */
  allowOrigins: string[];
  /** Lets the allowed origins' pages send the session cookie (never with `*`). */
  allowCredentials: boolean;
  allowMethods: string[];
  allowHeaders: string[];
  exposeHeaders: string[];
  maxAgeSeconds: number;
}

/**
 * CORS as API Gateway applies it (and the local runner imitates): any origin without credentials;
 * with allowed origins (`ALLOWED_ORIGINS`, `-c allowedOrigins`), exactly those, with credentials, so
 * their pages can make cookie-authenticated calls (pages of other origins then get no CORS answer).
 */
export function corsPolicy(allowedOrigins: readonly string[] = []): CorsPolicy {
  const credentialed = allowedOrigins.length > 0;
  return {
    allowOrigins: credentialed ? [...allowedOrigins] : ['*'],
    allowCredentials: credentialed,
    allowMethods: ['GET', 'HEAD', 'POST', 'PATCH', 'PUT', 'DELETE', 'OPTIONS'],
    allowHeaders: ['authorization', 'content-type', ...ZIPLINE_UPLOAD_HEADERS],
    exposeHeaders: ['x-next-cursor', 'retry-after'],
    maxAgeSeconds: 600,
  };
}

/**
 * A function S3 starts, not a route: on every object created under `prefix` (the bucket's
 * notification). Its grants are declared as a route's; `native` names the native module its bundle
 * carries (the linux-arm64 binary from infra/native), which no other function does.
 */
export interface ObjectEventFunction {
  handler: string;
  prefix: ObjectPrefix;
  table?: TableAccess;
  bucket?: BucketAccess;
  native: 'sharp';
}

export const objectEventFunctions: readonly ObjectEventFunction[] = [
  {
    // One WebP thumbnail per image upload: reads the file item, records the thumbnail on it only
    // while the file still has those bytes; reads the image, writes (or, when the file went
    // meanwhile, deletes) its thumbnail.
    handler: 'thumbnails/make',
    prefix: 'files/',
    table: { items: { GetItem: ['USER'], UpdateItem: ['USER'] } },
    bucket: { GetObject: ['files/'], PutObject: ['thumbnails/'], DeleteObject: ['thumbnails/'] },
    native: 'sharp',
  },
];

/** Answers unmatched requests (API Gateway's `$default` route) with 404/405 in the error format. */
export const FALLBACK_HANDLER = 'fallback';

export type RouteMatch =
  | { kind: 'route'; route: Route; pathParameters: Record<string, string> }
  | { kind: 'method_not_allowed'; allow: RouteMethod[] }
  | { kind: 'not_found' };

const compiled = routes.map((route) => ({
  route,
  names: [...route.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1] as string),
  pattern: new RegExp(`^${route.path.replace(/\{\w+\}/g, '([^/]+)')}/?$`),
}));

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
