/**
 * The one route table. The CDK stack builds a function and an API route from each entry, the local
 * runner and the tests dispatch through it, so the three cannot drift apart.
 */
import { EXPIRY_INDEX, type Partition, USERS_INDEX } from '#shared/db/keys';
import { SEARCH_INDEX, SORT_INDEXES } from '#shared/files/record/indexing';

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
  /** What it knows of the sign-in providers (issue 15); absent means nothing. */
  oauth?: SignInProviderAccess;
  /** Runs a passkey ceremony: knows the relying party (`PASSKEY_ORIGIN`, the dashboard's origin). */
  passkeys?: true;
  /** First-run setup's one-time code: says whether one is needed, or also checks it (reads it). */
  setupCode?: SetupCodeAccess;
}

/** `announces`: knows whether setup needs a code (`GET /api/setup`); `checks`: reads it (`POST`). */
export type SetupCodeAccess = 'announces' | 'checks';

/**
 * A function's knowledge of the OAuth providers: `providers` their configuration (client ids, issuer,
 * sign-up); `secrets` also their client secrets (the Secrets Manager secret), which only the callback
 * needs, for the token request.
 */
export type SignInProviderAccess = 'providers' | 'secrets';

/** Every index a file listing may read: the sort orders', the ones deep pages skip over, search's. */
const FILE_INDEXES = [
  ...new Set([
    ...Object.values(SORT_INDEXES).flatMap(({ index, skipIndex }) =>
      index ? [index, skipIndex] : [skipIndex],
    ),
    SEARCH_INDEX,
  ]),
];

/** What a route's function needs besides its handler; absent means none. */
interface Needs {
  table?: TableAccess;
  bucket?: BucketAccess;
  /** Hashes or verifies passwords (`hashesPasswords`). */
  bcrypt?: true;
  /** Reads the service keys (`usesKeys`). */
  keys?: true;
  oauth?: SignInProviderAccess;
  /** Runs a passkey ceremony (`passkeys`). */
  webauthn?: true;
  setupCode?: SetupCodeAccess;
}

/** One route: a line of the table, so a search for method and path finds its handler too. */
function route(method: HttpMethod, path: string, handler: string, needs: Needs = {}): Route {
  return {
    method,
    path,
    handler,
    ...(needs.table ? { table: needs.table } : {}),
    hashesPasswords: needs.bcrypt === true,
    usesKeys: needs.keys === true,
    ...(needs.bucket ? { bucket: needs.bucket } : {}),
    ...(needs.oauth ? { oauth: needs.oauth } : {}),
    ...(needs.webauthn ? { passkeys: true } : {}),
    ...(needs.setupCode ? { setupCode: needs.setupCode } : {}),
  };
}

/** Reading the caller's user item: every authenticated route does it. */
const SIGNED_IN = ['USER'] as const satisfies readonly Partition[];
const CALLER: TableAccess = { items: { GetItem: SIGNED_IN } };
/** Signed in, with its cookie or token checked against the keys. */
const AUTHENTICATED = { keys: true, table: CALLER } as const;

/** The table access of each route that needs more than reading the caller. */
const ACCESS = {
  // One GetItem proves the table answers.
  health: { items: { GetItem: ['SETUP'] } },
  login: {
    items: { GetItem: ['USER', 'USERNAME'], UpdateItem: ['USER', 'THROTTLE'], DeleteItem: ['THROTTLE'] },
  },
  // The code a provider sign-in of an account with TOTP on owes: the user, the login's counters, the
  // code used up and the session added (UpdateItem USER).
  signInCode: { items: { GetItem: ['USER'], UpdateItem: ['USER', 'THROTTLE'], DeleteItem: ['THROTTLE'] } },
  logout: { items: { GetItem: SIGNED_IN, UpdateItem: ['USER'] } },
  setupCheck: { items: { GetItem: ['SETUP'] } },
  setup: {
    items: {
      GetItem: ['SETUP'],
      PutItem: ['USER', 'USERNAME', 'USERLIKE', 'SETUP'],
      ConditionCheckItem: ['USERNAME'],
      UpdateItem: ['THROTTLE'],
    },
  },
  // A rename moves the username claims; a password change is counted as a guess (THROTTLE).
  userPatch: {
    items: {
      GetItem: SIGNED_IN,
      UpdateItem: ['USER', 'THROTTLE'],
      PutItem: ['USER', 'USERNAME', 'USERLIKE'],
      ConditionCheckItem: ['USERNAME'],
      DeleteItem: ['USER', 'USERNAME', 'USERLIKE'],
    },
  },
  avatar: { items: { GetItem: SIGNED_IN, Query: ['USER'] } },
  tokenReset: { items: { GetItem: SIGNED_IN, UpdateItem: ['USER', 'THROTTLE'] } },
  // Turning TOTP on or off is one conditional update of the caller's item; a code given to turn it
  // off is counted as a login guess (THROTTLE).
  totpEnable: { items: { GetItem: SIGNED_IN, UpdateItem: ['USER'] } },
  totpDisable: { items: { GetItem: SIGNED_IN, UpdateItem: ['USER', 'THROTTLE'] } },
  // The listed users' file counters (FILESTATS, in their partitions) come in one BatchGetItem.
  usersList: { items: { GetItem: SIGNED_IN, BatchGetItem: ['USER'] }, indexes: [USERS_INDEX] },
  usersCreate: {
    items: {
      GetItem: SIGNED_IN,
      PutItem: ['USER', 'USERNAME', 'USERLIKE'],
      ConditionCheckItem: ['USERNAME'],
      DeleteItem: ['USER'],
    },
  },
  usersPatch: {
    items: {
      GetItem: SIGNED_IN,
      UpdateItem: ['USER'],
      PutItem: ['USER', 'USERNAME', 'USERLIKE'],
      ConditionCheckItem: ['USERNAME'],
      DeleteItem: ['USER', 'USERNAME', 'USERLIKE'],
    },
  },
  // The user's name claims, linked provider accounts (OAUTHID) and passkeys (PASSKEY) go with it.
  // The deletion is recorded as pending (DELETION) with its mark, and forgotten with the user.
  usersDelete: {
    items: {
      GetItem: SIGNED_IN,
      Query: ['USER'],
      UpdateItem: ['USER', 'DELETION'],
      DeleteItem: ['USER', 'USERNAME', 'USERLIKE', 'FILENAME', 'OAUTHID', 'PASSKEY', 'DELETION'],
      BatchWriteItem: ['USER'],
    },
  },
  usersDeleteContinued: {
    items: {
      GetItem: ['USER'],
      Query: ['USER', 'DELETION'],
      DeleteItem: ['USER', 'USERNAME', 'USERLIKE', 'FILENAME', 'OAUTHID', 'PASSKEY', 'DELETION'],
      BatchWriteItem: ['USER'],
    },
  },
  upload: {
    items: {
      GetItem: SIGNED_IN,
      Query: ['USER'],
      ConditionCheckItem: ['USER'],
      PutItem: ['USER', 'FILENAME'],
      UpdateItem: ['USER'],
      DeleteItem: ['USER'],
    },
  },
  filesList: {
    items: { GetItem: SIGNED_IN, BatchGetItem: ['USER'], Query: ['USER'] },
    indexes: FILE_INDEXES,
  },
  uploadStart: {
    items: {
      GetItem: SIGNED_IN,
      Query: ['USER'],
      ConditionCheckItem: ['USER'],
      PutItem: ['USER'],
      UpdateItem: ['USER'],
      DeleteItem: ['USER'],
    },
  },
  uploadComplete: {
    items: {
      GetItem: SIGNED_IN,
      ConditionCheckItem: ['USER'],
      PutItem: ['USER', 'FILENAME'],
      UpdateItem: ['USER'],
      DeleteItem: ['USER'],
    },
  },
  filePatch: { items: { GetItem: SIGNED_IN, ConditionCheckItem: ['USER'], UpdateItem: ['USER'] } },
  fileDelete: {
    items: {
      GetItem: SIGNED_IN,
      ConditionCheckItem: ['USER'],
      UpdateItem: ['USER'],
      DeleteItem: ['USER', 'FILENAME'],
    },
  },
  // With `?pw=`: the file's hash is read first, and guesses are counted (THROTTLE).
  raw: { items: { GetItem: ['FILENAME', 'USER'], UpdateItem: ['USER', 'THROTTLE'] } },
  // The name claim; the owner's view settings with the file (one BatchGetItem); the view count.
  viewPage: { items: { GetItem: ['FILENAME'], BatchGetItem: ['USER'], UpdateItem: ['USER'] } },
  // The view page's password form: the page's reads, and guesses counted per address and per name
  // as on /raw?pw=.
  viewUnlock: { items: { GetItem: ['FILENAME'], BatchGetItem: ['USER'], UpdateItem: ['USER', 'THROTTLE'] } },
  oembed: { items: { GetItem: ['FILENAME'], BatchGetItem: ['USER'] } },
  // The provider account's claim and its user; the flow's state recorded once (OAUTHFLOW); a new
  // session (UpdateItem USER); a link (the claim and the user's list in one transaction), or a
  // sign-up (a user with its username claims and the provider account's).
  oauthCallback: {
    items: {
      GetItem: ['USER', 'OAUTHID'],
      PutItem: ['OAUTHFLOW', 'OAUTHID', 'USER', 'USERNAME', 'USERLIKE'],
      UpdateItem: ['USER'],
      ConditionCheckItem: ['USERNAME'],
    },
  },
  oauthUnlink: { items: { GetItem: SIGNED_IN, UpdateItem: ['USER'], DeleteItem: ['OAUTHID'] } },
  // Passkeys (issue 15): a challenge handed out (WEBAUTHN), consumed by a conditional delete; a
  // credential item (PASSKEY) beside its user's list entry, in one transaction.
  passkeyOptions: { items: { GetItem: SIGNED_IN, PutItem: ['WEBAUTHN'] } },
  passkeyRegister: {
    items: { GetItem: SIGNED_IN, DeleteItem: ['WEBAUTHN'], PutItem: ['PASSKEY'], UpdateItem: ['USER'] },
  },
  passkeyRename: { items: { GetItem: SIGNED_IN, UpdateItem: ['USER'] } },
  passkeyDelete: { items: { GetItem: SIGNED_IN, UpdateItem: ['USER'], DeleteItem: ['PASSKEY'] } },
  passkeySignInOptions: { items: { PutItem: ['WEBAUTHN'] } },
  // The credential and its user; the counter and last use (one transaction); a new session.
  passkeySignIn: {
    items: { DeleteItem: ['WEBAUTHN'], GetItem: ['PASSKEY', 'USER'], UpdateItem: ['PASSKEY', 'USER'] },
  },
} satisfies Record<string, TableAccess>;

/** The bucket access of each route that has one. */
const BUCKET = {
  // `{"delete": true}` lists and deletes the user's objects and thumbnails.
  usersDelete: {
    ListBucket: ['files/', 'uploads/', 'thumbnails/'],
    DeleteObject: ['files/', 'uploads/', 'thumbnails/'],
  },
  // Chunked uploads: the multipart upload is PutObject under files/; chunks too small for a part
  // wait under uploads/ (read back into the part, then deleted).
  upload: {
    PutObject: ['files/', 'uploads/'],
    GetObject: ['uploads/'],
    DeleteObject: ['files/', 'uploads/'],
  },
  uploadStart: { PutObject: ['files/'], PutObjectTagging: ['files/'], DeleteObject: ['files/'] },
  uploadComplete: {
    GetObject: ['files/'],
    ListBucket: ['files/'],
    PutObjectTagging: ['files/'],
    DeleteObject: ['files/'],
  },
  // The owner's bytes: read by the function up to 4 MiB, else a presigned GET.
  read: { GetObject: ['files/'] },
  // `/raw`: the same, and a view page's stable og:image link, which for a large image is its
  // thumbnail's presigned GET.
  raw: { GetObject: ['files/', 'thumbnails/'] },
  // The owner's thumbnail of an image (the dashboard's grid).
  thumbnail: { GetObject: ['thumbnails/'] },
  // Presigned GETs for the page's media, download and og:image (the thumbnail); a ranged GET for a
  // text file's start.
  viewPage: { GetObject: ['files/', 'thumbnails/'] },
  // The bytes and their thumbnail, in one DeleteObjects; a presigned upload's object whose URL may
  // still be valid is tagged for the lifecycle rule instead (files/objects.ts `deleteFileObject`).
  delete: { DeleteObject: ['files/', 'thumbnails/'], PutObjectTagging: ['files/'] },
} satisfies Record<string, BucketAccess>;

/**
 * One line per route. `bcrypt`: upload, upload start and file PATCH hash a file's password, `/raw`
 * checks `?pw=`, and so does `POST /view/{name}`, the view page's password form (its view counted
 * once the password is right). `/api/user/files/{id}/raw` is the owner's own view of the bytes
 * (dashboard previews and "open"): it counts no view. `/view/{name}` is a file's public page,
 * `/api/oembed/{name}` the oEmbed answer view pages link to (embeds on): its texts, no view counted.
 */
export const routes: readonly Route[] = [
  route('GET', '/api/healthcheck', 'health/check', { table: ACCESS.health }),
  route('GET', '/api/version', 'health/version', AUTHENTICATED),
  route('POST', '/api/auth/login', 'auth/login', { keys: true, bcrypt: true, table: ACCESS.login }),
  route('GET', '/api/auth/oauth', 'auth/oauth-providers', { oauth: 'providers' }),
  // A sign-in starts with a GET (it signs nobody in by itself); a link with a POST by the session.
  route('GET', '/api/auth/oauth/{provider}', 'auth/oauth-start', { keys: true, oauth: 'providers' }),
  route('POST', '/api/auth/oauth/{provider}', 'auth/oauth-link', { ...AUTHENTICATED, oauth: 'providers' }),
  route('GET', '/api/auth/oauth/{provider}/callback', 'auth/oauth-callback', {
    keys: true,
    oauth: 'secrets',
    table: ACCESS.oauthCallback,
  }),
  route('POST', '/api/auth/totp', 'auth/totp', { keys: true, table: ACCESS.signInCode }),
  route('POST', '/api/auth/passkey/options', 'auth/passkey-options', {
    webauthn: true,
    table: ACCESS.passkeySignInOptions,
  }),
  route('POST', '/api/auth/passkey', 'auth/passkey-sign-in', {
    keys: true,
    webauthn: true,
    table: ACCESS.passkeySignIn,
  }),
  route('POST', '/api/auth/logout', 'auth/logout', { keys: true, table: ACCESS.logout }),
  route('GET', '/api/auth/logout', 'auth/logout', { keys: true, table: ACCESS.logout }),
  route('GET', '/api/setup', 'setup/get', { table: ACCESS.setupCheck, setupCode: 'announces' }),
  route('POST', '/api/setup', 'setup/post', { bcrypt: true, table: ACCESS.setup, setupCode: 'checks' }),
  route('GET', '/api/user', 'user/get', AUTHENTICATED),
  route('PATCH', '/api/user', 'user/patch', { keys: true, bcrypt: true, table: ACCESS.userPatch }),
  route('GET', '/api/user/avatar', 'user/avatar', { keys: true, table: ACCESS.avatar }),
  route('GET', '/api/user/token', 'user/token-get', AUTHENTICATED),
  route('PATCH', '/api/user/token', 'user/token-reset', { keys: true, table: ACCESS.tokenReset }),
  route('DELETE', '/api/user/oauth', 'user/oauth-unlink', { keys: true, table: ACCESS.oauthUnlink }),
  route('GET', '/api/user/mfa/totp', 'user/mfa-totp-get', AUTHENTICATED),
  route('POST', '/api/user/mfa/totp', 'user/mfa-totp-enable', { keys: true, table: ACCESS.totpEnable }),
  route('DELETE', '/api/user/mfa/totp', 'user/mfa-totp-disable', { keys: true, table: ACCESS.totpDisable }),
  route('POST', '/api/user/passkeys/options', 'user/passkeys-options', {
    keys: true,
    webauthn: true,
    table: ACCESS.passkeyOptions,
  }),
  route('POST', '/api/user/passkeys', 'user/passkeys-register', {
    keys: true,
    webauthn: true,
    table: ACCESS.passkeyRegister,
  }),
  route('PATCH', '/api/user/passkeys/{id}', 'user/passkeys-rename', {
    keys: true,
    table: ACCESS.passkeyRename,
  }),
  route('DELETE', '/api/user/passkeys/{id}', 'user/passkeys-delete', {
    keys: true,
    table: ACCESS.passkeyDelete,
  }),
  route('GET', '/api/users', 'users/list', { keys: true, table: ACCESS.usersList }),
  route('POST', '/api/users', 'users/create', { keys: true, bcrypt: true, table: ACCESS.usersCreate }),
  route('GET', '/api/users/{id}', 'users/get', AUTHENTICATED),
  route('PATCH', '/api/users/{id}', 'users/patch', { keys: true, bcrypt: true, table: ACCESS.usersPatch }),
  route('DELETE', '/api/users/{id}', 'users/delete', {
    keys: true,
    table: ACCESS.usersDelete,
    bucket: BUCKET.usersDelete,
  }),
  route('POST', '/api/upload', 'files/upload', {
    keys: true,
    bcrypt: true,
    table: ACCESS.upload,
    bucket: BUCKET.upload,
  }),
  route('GET', '/api/user/files', 'files/list', { keys: true, table: ACCESS.filesList }),
  route('POST', '/api/user/files/uploads', 'files/upload-start', {
    keys: true,
    bcrypt: true,
    table: ACCESS.uploadStart,
    bucket: BUCKET.uploadStart,
  }),
  route('POST', '/api/user/files/uploads/{id}/complete', 'files/upload-complete', {
    keys: true,
    table: ACCESS.uploadComplete,
    bucket: BUCKET.uploadComplete,
  }),
  route('GET', '/api/user/files/{id}', 'files/get', AUTHENTICATED),
  route('GET', '/api/user/files/{id}/raw', 'files/raw-owner', { ...AUTHENTICATED, bucket: BUCKET.read }),
  route('GET', '/api/user/files/{id}/thumbnail', 'files/raw-owner', {
    ...AUTHENTICATED,
    bucket: BUCKET.thumbnail,
  }),
  route('PATCH', '/api/user/files/{id}', 'files/patch', {
    keys: true,
    bcrypt: true,
    table: ACCESS.filePatch,
  }),
  route('DELETE', '/api/user/files/{id}', 'files/delete', {
    keys: true,
    table: ACCESS.fileDelete,
    bucket: BUCKET.delete,
  }),
  route('GET', '/raw/{name}', 'files/raw', { bcrypt: true, table: ACCESS.raw, bucket: BUCKET.raw }),
  route('GET', '/view/{name}', 'view/page', { table: ACCESS.viewPage, bucket: BUCKET.viewPage }),
  route('POST', '/view/{name}', 'view/unlock', {
    bcrypt: true,
    table: ACCESS.viewUnlock,
    bucket: BUCKET.viewPage,
  }),
  route('GET', '/api/oembed/{name}', 'view/oembed', { table: ACCESS.oembed }),
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

/** S3 notifications a function can subscribe to, by S3's names (`*` for every kind). */
export type ObjectEventType = 's3:ObjectCreated:*' | 's3:ObjectTagging:Put';

/**
 * A function S3 starts, not a route: on each of `events` for objects under `prefix` (the bucket's
 * notifications). Its grants are declared as a route's; `native` names the native module its bundle
 * carries (the linux-arm64 binary from infra/native), which no other function does.
 */
export interface ObjectEventFunction {
  handler: string;
  prefix: ObjectPrefix;
  events: readonly ObjectEventType[];
  table?: TableAccess;
  bucket?: BucketAccess;
  native: 'sharp';
}

export const objectEventFunctions: readonly ObjectEventFunction[] = [
  {
    // One WebP thumbnail per image upload, whichever path stored it: an object created (direct
    // uploads, a chunked upload's CompleteMultipartUpload) or retagged (a presigned upload's
    // completion). Reads the file item (for an upload's object first its completion record, or its
    // pending item), records the thumbnail on it only while the file still has those bytes; reads
    // the image, writes (or, when the file went meanwhile, deletes) its thumbnail.
    handler: 'thumbnails/make',
    prefix: 'files/',
    events: ['s3:ObjectCreated:*', 's3:ObjectTagging:Put'],
    table: { items: { GetItem: ['USER'], UpdateItem: ['USER'] } },
    bucket: { GetObject: ['files/'], PutObject: ['thumbnails/'], DeleteObject: ['thumbnails/'] },
    native: 'sharp',
  },
];

/** A scheduled function's timeout in AWS (the stack's; tests/infra/stack.test.ts holds them equal). */
export const SCHEDULED_FUNCTION_SECONDS = 60;

/**
 * A function a schedule starts, not a route: every `everyMinutes` minutes in AWS (EventBridge), every
 * few seconds in the local runner. Its grants are declared as a route's.
 */
export interface ScheduledFunction {
  handler: string;
  everyMinutes: number;
  table?: TableAccess;
  bucket?: BucketAccess;
}

export const scheduledFunctions: readonly ScheduledFunction[] = [
  {
    // The expiry sweep (files/expiry.ts): the due files from the expiry index; each file read, then
    // deleted with its name claim and counters share in one transaction; its bytes and thumbnail.
    handler: 'files/expire',
    everyMinutes: 1,
    table: {
      items: {
        GetItem: ['USER'],
        ConditionCheckItem: ['USER'],
        UpdateItem: ['USER'],
        DeleteItem: ['USER', 'FILENAME'],
      },
      indexes: [EXPIRY_INDEX],
    },
    bucket: BUCKET.delete,
  },
  {
    // Finishes user deletions that DELETE /api/users/{id} left under way (accounts/deletion.ts):
    // the pending ones from their partition, then what the deletion itself does.
    handler: 'users/continue-deletions',
    everyMinutes: 1,
    table: ACCESS.usersDeleteContinued,
    bucket: BUCKET.usersDelete,
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
