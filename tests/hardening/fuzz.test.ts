import fc from 'fast-check';
import type { Route } from '#shared/routes/route';
import { routes } from '#shared/routes/table';
import { type CallOptions, call, type TestResponse } from '../support/client.ts';
import { urlFor } from '../support/routes.ts';
import { changedKeys, type TableSnapshot, tableSnapshot } from '../support/snapshot.ts';
import { signedInUser } from '../support/users.ts';

/**
 * Random and hostile requests at every route of the table, through the HTTP path. Whatever comes
 * in: never a 5xx, the error body on every error, the security headers on every answer, and a
 * refused request leaves the table exactly as it was.
 */
type Credentials = Awaited<ReturnType<typeof signedInUser>>;
let admin: Credentials;
let victimId: string;

beforeAll(async () => {
  admin = await signedInUser('SUPERADMIN');
  victimId = (await signedInUser('USER')).id;
});

/** Property names the schemas know, and ones that must never get anywhere. */
const KEY = fc.oneof(
  fc.constantFrom(
    'username',
    'password',
    'code',
    'avatar',
    'view',
    'role',
    'quota',
    'delete',
    'enabled',
    'embedColor',
    'provider',
    'name',
    'response',
  ),
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', ''),
  fc.string({ maxLength: 12 }),
);
const VALUE = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(
    '',
    'x'.repeat(3000),
    'long enough password',
    'USER',
    'SUPERADMIN',
    'oidc',
    '#12345g',
    '\u0000',
    '\u202e',
  ),
);
const objectBody = fc.dictionary(KEY, fc.oneof(VALUE, fc.dictionary(KEY, VALUE, { maxKeys: 4 })), {
  maxKeys: 5,
});

const BODY = fc.oneof(
  fc.constant(undefined),
  objectBody.map((object) => JSON.stringify(object)),
  fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value)),
  fc.string({ maxLength: 200 }),
  fc.integer({ min: 1, max: 40 }).map((depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`),
  fc.constantFrom(
    '{',
    '{"username":',
    '{"a":1}{"b":2}',
    '\ufeff{}',
    'null',
    '[]',
    '{"__proto__":{"admin":true}}',
  ),
  fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)),
);
const CONTENT_TYPE = fc.oneof(
  fc.constant(undefined),
  fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', 'multipart/form-data'),
  fc.string({ maxLength: 40 }),
);
const QUERY = fc.oneof(
  fc.constant(''),
  fc
    .dictionary(fc.string({ maxLength: 10 }), fc.string({ maxLength: 30 }), { maxKeys: 40 })
    .map((params) => `?${new URLSearchParams(params)}`),
  fc.constantFrom(
    '?limit=0',
    '?limit=1001',
    '?limit=-1',
    '?cursor=x.y',
    '?cursor=',
    `?cursor=${'a'.repeat(5000)}`,
    '?%zz',
  ),
);
/** Mostly absent: a hostile header should not hide what the rest of the request would reach. */
const sometimes = <T>(values: T[]) =>
  fc.oneof(
    { arbitrary: fc.constant(undefined), weight: 3 },
    { arbitrary: fc.constantFrom(...values), weight: 1 },
  );
const HEADERS = fc.record({
  extra: fc.dictionary(fc.stringMatching(/^[a-z][a-z0-9-]{0,15}$/), fc.string({ maxLength: 100 }), {
    maxKeys: 4,
  }),
  origin: sometimes(['https://evil.example', 'null', 'http://localhost', '']),
  'sec-fetch-site': sometimes(['cross-site', 'same-origin', 'none', 'CROSS-SITE']),
  'x-forwarded-proto': sometimes(['http', 'https', 'gopher']),
  huge: fc.oneof(
    { arbitrary: fc.constant(undefined), weight: 9 },
    { arbitrary: fc.constant('h'.repeat(17 * 1024)), weight: 1 },
  ),
});
const PATH_ID = fc.oneof(
  fc.constant('victim'),
  fc.string({ maxLength: 40 }).filter((id) => id.length > 0 && !id.includes('/')),
  fc.constantFrom('..', '%00', 'USER#x', ' ', '\u0000', 'x'.repeat(3000), '\u{1F600}'.repeat(600)),
);

/** How the request authenticates. */
const AUTH = fc.oneof(
  fc.constant({ kind: 'none' as const }),
  fc.constant({ kind: 'cookie' as const }),
  fc.constant({ kind: 'token' as const }),
  fc.string({ maxLength: 600 }).map((value) => ({ kind: 'bad-cookie' as const, value })),
  fc.string({ maxLength: 600 }).map((value) => ({ kind: 'bad-token' as const, value })),
  fc.constant({ kind: 'bad-cookie' as const, value: 'A'.repeat(5000) }),
);

const REQUEST = fc.record({
  route: fc.constantFrom(...routes),
  pathId: PATH_ID,
  body: BODY,
  contentType: CONTENT_TYPE,
  query: QUERY,
  headers: HEADERS,
  auth: AUTH,
  sourceIp: fc.ipV4(),
});
type FuzzRequest = typeof REQUEST extends fc.Arbitrary<infer T> ? T : never;

async function send(request: FuzzRequest): Promise<TestResponse> {
  const headers: Record<string, string> = { ...request.headers.extra };
  for (const name of ['origin', 'sec-fetch-site', 'x-forwarded-proto', 'huge'] as const) {
    const value = request.headers[name];
    if (value !== undefined) headers[name] = value;
  }
  if (request.contentType !== undefined) headers['content-type'] = request.contentType;
  const auth = request.auth;
  const id = request.pathId === 'victim' ? victimId : request.pathId;
  return call(request.route.method, `${urlFor(request.route, id)}${request.query}`, {
    headers,
    ...(request.body === undefined ? {} : { raw: request.body }),
    ...(auth.kind === 'cookie' ? { cookie: admin.cookie } : {}),
    ...(auth.kind === 'token' ? { token: admin.token } : {}),
    ...(auth.kind === 'bad-cookie' ? { cookie: `service_session=${auth.value}` } : {}),
    ...(auth.kind === 'bad-token' ? { token: auth.value } : {}),
    sourceIp: request.sourceIp,
  });
}

/**
 * Refused requests that still count an attempt by design: failed logins, and setup attempts that
 * got as far as hashing. Everything else refused writes nothing at all.
 */
function mayCount(route: Route, response: TestResponse): string | undefined {
  if (route.path === '/api/auth/login' && [401, 429].includes(response.status)) return 'THROTTLE#login-';
  if (
    route.path === '/api/setup' &&
    (response.status === 429 || response.body?.error === 'username is already taken')
  )
    return 'THROTTLE#setup-';
  // A password guess at any name is counted, per address and per name (the forms are no oracle).
  const checksPassword = ['/view/{name}', '/u/{name}', '/api/user/files/{id}/password'].includes(route.path);
  if (checksPassword && route.method === 'POST' && [404, 429].includes(response.status))
    return 'THROTTLE#file-password';
  // So is one at a short link's name: per link, and per address with the file passwords' budget.
  const checksLinkPassword = ['/view/url/{id}', '/api/user/urls/{id}/password'].includes(route.path);
  if (checksLinkPassword && route.method === 'POST' && [403, 404, 429].includes(response.status))
    return 'THROTTLE#';
  return undefined;
}

let snapshot: TableSnapshot;

const statuses = new Map<number, number>();

async function check(request: FuzzRequest) {
  const response = await send(request);
  statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
  expect(response.status).toBeLessThan(500);
  expect(response.headers).toMatchObject({
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-store',
    'access-control-allow-origin': '*',
  });
  const after = await tableSnapshot();
  if (response.status >= 400) {
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.body).toEqual({ error: expect.any(String), statusCode: response.status });
    const counted = mayCount(request.route, response);
    const unexpected = changedKeys(snapshot, after).filter((key) => !counted || !key.startsWith(counted));
    expect(unexpected).toEqual([]);
    // Nothing has run since `after` was read: it is the next request's starting point (a second
    // scan of the table here read the same items again, one more scan per refused request).
    snapshot = after;
  } else {
    // An accepted request (valid by chance): it may change data, and may end the admin's session or
    // token, a GET too (`GET /api/auth/logout`).
    const stillIn = await call('GET', '/api/user', { cookie: admin.cookie });
    const tokenWorks = await call('GET', '/api/user', { token: admin.token });
    if (stillIn.status !== 200 || tokenWorks.status !== 200) admin = await signedInUser('SUPERADMIN');
    snapshot = await tableSnapshot();
  }
}

const RUNS = 200;

// 200 requests, each followed by a scan of the table: over 30 s on the shared, loaded machine.
test('hostile requests at every route: no 5xx, the error body, nothing written by a refusal', async () => {
  snapshot = await tableSnapshot();
  await fc.assert(fc.asyncProperty(REQUEST, check), { numRuns: RUNS });
}, 120_000);

afterAll(() => {
  // Coverage check on the generators: the requests reach past the refusals into accepted ones.
  expect(statuses.get(200)).toBeGreaterThan(0);
  expect(statuses.get(400)).toBeGreaterThan(0);
  expect(statuses.get(401)).toBeGreaterThan(0);
});

test.each(routes.map((route) => [`${route.method} ${route.path}`, route] as const))(
  '%s gets its own share of hostile requests, authenticated and not',
  async (_, route) => {
    snapshot = await tableSnapshot();
    await fc.assert(
      fc.asyncProperty(REQUEST, (request) => check({ ...request, route })),
      { numRuns: 25 },
    );
  },
);

/** The routes whose path names something (`{id}`, `{name}`), with a body each would accept. */
const PARAMETER_ROUTES = routes.filter((route) => route.path.includes('{'));
const ACCEPTED_REQUEST: Record<string, CallOptions> = {
  'users/patch': { json: {} },
  'users/delete': { json: {} },
  'files/patch': { json: { favorite: true } },
  'files/password': { json: { password: 'guess' } },
  'links/patch': { json: {} },
  'tags/patch': { json: {} },
  'links/password': { json: { password: 'guess' } },
  'user/passkeys-rename': { json: { name: 'Laptop' } },
  'folders/add-file': { json: { id: '01arz3ndektsv4rrffq69g5fav' } },
  'folders/patch': { json: {} },
  'folders/delete': { json: { delete: 'folder' } },
  // The Zipline import (issue 40): bodies it accepts, so the path's Zipline id is what is refused.
  'import/user': { json: { username: 'fuzz-imported', role: 'USER' } },
  'import/folder': { json: { owner: 'c000000000000000000000000', name: 'fuzz' } },
  'import/tag': { json: { owner: 'c000000000000000000000000', name: 'fuzz', color: '#000' } },
  'import/url': {
    json: { owner: 'c000000000000000000000000', code: 'fuzz', destination: 'https://example.com' },
  },
  'import/file-start': {
    json: { owner: 'c000000000000000000000000', name: 'fuzz.txt', type: 'text/plain', size: 1 },
  },
  'import/file-complete': { json: { owner: 'c000000000000000000000000' } },
  'view/unlock': {
    raw: 'password=guess',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  },
  // A handler behind two methods: its POST line's body (`/u/{name}`'s password form).
  'POST view/link': {
    raw: 'password=guess',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  },
};
const acceptedRequest = (route: Route) =>
  ACCEPTED_REQUEST[`${route.method} ${route.handler}`] ?? ACCEPTED_REQUEST[route.handler];
/** Ids of every other kind, and strings no id format allows (DynamoDB refuses keys over 2 KB). */
const HOSTILE_ID = fc
  .oneof(
    fc.constantFrom(
      'x'.repeat(3000),
      '\u{1F600}'.repeat(600),
      'a'.repeat(1025),
      '00000000-0000-4000-8000-00000000000',
      '00000000-0000-4000-8000-0000000000000',
      '01jd0000000000000000000000',
      '0123456789abcdef0123456789abcdef',
      'USER#x',
      '%2e%2e',
      '\u0000',
      'a\u202eb',
      ' ',
    ),
    fc.string({ minLength: 1, maxLength: 4000 }),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 1500 }),
  )
  .filter((id) => !id.includes('/') && id !== '.' && id !== '..'); // a dot segment is another path

let requestCount = 0;
test.each(PARAMETER_ROUTES.map((route) => [`${route.method} ${route.path}`, route] as const))(
  '%s: a path parameter that is not a well-formed id is a 404 and touches nothing',
  async (_, route) => {
    snapshot = await tableSnapshot();
    await fc.assert(
      fc.asyncProperty(HOSTILE_ID, async (id) => {
        const response = await call(route.method, urlFor(route, id), {
          cookie: admin.cookie,
          // Each from its own address: the form's guesses are limited per address (30 a window).
          sourceIp: `10.0.${Math.floor(++requestCount / 250)}.${requestCount % 250}`,
          ...acceptedRequest(route),
        });
        expect(response.status).toBe(404);
        expect(response.body).toEqual({ error: expect.any(String), statusCode: 404 });
        const counted = mayCount(route, response);
        const changed = changedKeys(snapshot, await tableSnapshot());
        expect(changed.filter((key) => !counted || !key.startsWith(counted))).toEqual([]);
      }),
      { numRuns: 40 },
    );
  },
);
