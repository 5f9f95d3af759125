import { PutObjectCommand } from '@aws-sdk/client-s3';
import { dynamodb, itemReader } from '#shared/db/client';
import { PARTITION_PATTERNS, type Partition } from '#shared/db/keys/partitions';
import { SORT_FIELDS } from '#shared/files/model';
import { MIN_CHUNK_BYTES } from '#shared/files/reservation/staged-chunks';
import { bucketName, s3 } from '#shared/s3/client';
import { forgetSettings } from '#shared/settings/current';
import { type FunctionSpec, functionSpecs } from '../../infra/functions.ts';
import { loadHandler, routeEvent } from '../../infra/local/dispatch.ts';
import { s3Event } from '../../infra/local/s3.ts';
import { scheduledEvent } from '../../infra/local/schedules.ts';
import { assert, register } from '../support/authenticator.ts';
import {
  type CallOptions,
  call,
  cookieValue,
  requestEvent,
  type TestResponse,
  uniqueName,
} from '../support/client.ts';
import { expireFile } from '../support/files.ts';
import { multipart } from '../support/multipart.ts';
import { type OidcProvider, providerSignIn, startOidcProvider } from '../support/oidc.ts';
import { PNG_1X1 } from '../support/pixels.ts';
import { updateUserQuota } from '../support/quota.ts';
import { headForbidden, injectS3Fault } from '../support/s3-calls.ts';
import { streamDrained } from '../support/table-stream.ts';
import { acceptedAtOneStep, codeAt, stepNow } from '../support/totp-codes.ts';
import { importFlow } from '../support/zipline-import.ts';

/**
 * The stack grants each function only what its routes declare (tests/infra/stack.test.ts checks the
 * template against the declarations). This file checks the declarations against the code: every
 * DynamoDB and S3 request a handler really sends, through the flows of every route, is one its
 * function's grant allows, action by action and partition by partition (key prefix by key prefix in
 * the bucket), and every declared grant is used by some flow (none is wider than needed).
 */

/** One IAM-level request: action, and the partition key or object key (or index) it touches. */
interface Use {
  handler: string;
  action: string;
  /** `table:<pk>`, `index:<name>`, `object:<key>`, `prefix:<listed prefix>`. */
  target: string;
}

const uses: Use[] = [];
let current: string | undefined;

// biome-ignore lint/suspicious/noExplicitAny: SDK inputs are inspected structurally.
type Input = any;
const pkOf = (key: Input): string => String(key?.pk?.S ?? key?.pk);
const record = (action: string, target: string) => {
  if (current) uses.push({ handler: current, action, target });
};

/** What IAM evaluates for each DynamoDB command (a transaction: each of its items' actions). */
function recordDynamoDb(command: string, input: Input): void {
  const name = command.replace(/Command$/, '');
  if (name === 'TransactWriteItems') {
    for (const item of input.TransactItems as Input[]) {
      const [kind, body] = Object.entries(item)[0] as [string, Input];
      const action = {
        Put: 'PutItem',
        Update: 'UpdateItem',
        Delete: 'DeleteItem',
        ConditionCheck: 'ConditionCheckItem',
      }[kind as 'Put'];
      record(action, `table:${pkOf(body.Key ?? body.Item)}`);
    }
  } else if (name === 'BatchWriteItem' || name === 'BatchGetItem') {
    for (const requests of Object.values(input.RequestItems) as Input[]) {
      const keys =
        name === 'BatchGetItem'
          ? requests.Keys
          : requests.map((request: Input) => request.DeleteRequest?.Key ?? request.PutRequest?.Item);
      for (const key of keys) record(name, `table:${pkOf(key)}`);
    }
  } else if (name === 'Query' && input.IndexName) {
    record('Query', `index:${input.IndexName}`);
  } else if (name === 'Query') {
    const placeholder = /\bpk = (:\w+)/.exec(input.KeyConditionExpression)?.[1] as string;
    const value = input.ExpressionAttributeValues[placeholder];
    record('Query', `table:${value?.S ?? value}`);
  } else {
    record(name, `table:${pkOf(input.Key ?? input.Item)}`);
  }
}

/** What IAM evaluates for each S3 command (presigned uploads included: they carry the same permission). */
function recordS3(command: string, input: Input): void {
  const object = (key: unknown) => `object:${key}`;
  const copied = String(input.CopySource).split('/').slice(1).join('/');
  const uses: Record<string, [string, string][]> = {
    GetObjectCommand: [['GetObject', object(input.Key)]],
    HeadObjectCommand: [['GetObject', object(input.Key)]],
    PutObjectCommand: [
      ['PutObject', object(input.Key)],
      ...(input.Tagging ? [['PutObjectTagging', object(input.Key)] as [string, string]] : []),
    ],
    PutObjectTaggingCommand: [['PutObjectTagging', object(input.Key)]],
    CopyObjectCommand: [
      ['GetObject', object(copied)],
      ['PutObject', object(input.Key)],
    ],
    DeleteObjectCommand: [['DeleteObject', object(input.Key)]],
    DeleteObjectsCommand: (input.Delete?.Objects ?? []).map((item: Input) => [
      'DeleteObject',
      object(item.Key),
    ]),
    ListObjectsV2Command: [['ListBucket', `prefix:${input.Prefix}`]],
    // The multipart upload of a chunked upload is authorized as s3:PutObject on the object's key.
    CreateMultipartUploadCommand: [['PutObject', object(input.Key)]],
    UploadPartCommand: [['PutObject', object(input.Key)]],
    CompleteMultipartUploadCommand: [['PutObject', object(input.Key)]],
    AbortMultipartUploadCommand: [['AbortMultipartUpload', object(input.Key)]],
  };
  for (const [action, target] of uses[command] ?? [[command, 'unknown']]) record(action, target);
}

beforeAll(() => {
  dynamodb.middlewareStack.add(
    (next, context) => async (args) => {
      recordDynamoDb(context.commandName as string, args.input);
      return next(args);
    },
    { step: 'initialize', name: 'recordGrantUse' },
  );
  itemReader.intercept((next) => (input) => {
    recordDynamoDb('GetItemCommand', input);
    return next(input);
  });
  itemReader.interceptQueries((next) => (input) => {
    recordDynamoDb('QueryCommand', input);
    return next(input);
  });
  s3.middlewareStack.add(
    (next, context) => async (args) => {
      recordS3(context.commandName as string, args.input);
      return next(args);
    },
    { step: 'initialize', name: 'recordGrantUse' },
  );
});

/**
 * The reads a response hands out as presigned URLs (a redirect's `location`, a page's media, download
 * and og:image). They are signed without any request to S3 (shared/s3/presign.ts), and whoever follows
 * them reads with the function's permission: GetObject on each key.
 */
function recordHandedOutReads(response: TestResponse): void {
  const page = response.headers['content-type']?.startsWith('text/html') ? response.text : '';
  const objectUrl = new RegExp(`${process.env.S3_ENDPOINT}/${bucketName}/([^?"'\\s]+)`, 'g');
  for (const text of [response.headers.location ?? '', page]) {
    for (const [, key] of text.matchAll(objectUrl))
      record('GetObject', `object:${decodeURIComponent(key as string)}`);
  }
}

/** A request through the runner, its AWS requests attributed to the function that serves it. */
async function request(method: string, url: string, options: CallOptions = {}) {
  current = routeEvent(requestEvent(method, url, options)).handler;
  forgetSettings();
  try {
    const response = await call(method, url, options);
    recordHandedOutReads(response);
    return response;
  } finally {
    current = undefined;
  }
}

/** The grant lines a use needs, in the words of the route table. */
function allowedBy(spec: FunctionSpec, use: Use): string | undefined {
  const [kind, value = ''] = [
    use.target.slice(0, use.target.indexOf(':')),
    use.target.slice(use.target.indexOf(':') + 1),
  ];
  if (kind === 'index') return spec.table.indexes?.includes(value) ? `${use.action} ${value}` : undefined;
  if (kind === 'table') {
    const partition = (spec.table.items?.[use.action as 'GetItem'] ?? []).find((candidate) => {
      const pattern = PARTITION_PATTERNS[candidate as Partition];
      return pattern.endsWith('*') ? value.startsWith(pattern.slice(0, -1)) : value === pattern;
    });
    return partition && `${use.action} ${partition}`;
  }
  const prefix = (spec.bucket[use.action as 'GetObject'] ?? []).find((candidate) =>
    value.startsWith(candidate),
  );
  return prefix && `${use.action} ${prefix}`;
}

/**
 * Grants only a path these flows do not reach needs, each with the test that reaches it: reclaiming a
 * presigned upload's reservation after it ran out (an hour after the start).
 */
const REACHED_ELSEWHERE: Record<string, string> = {
  'files/transaction-delete BatchWriteItem FILEVIEWS':
    "a popular file's view counters deleted with it: tests/http/file-views.test.ts (the bulk delete and the expiry sweep)",
  'files/expire BatchWriteItem FILEVIEWS':
    "a popular file's view counters deleted with it: tests/http/file-views.test.ts (the bulk delete and the expiry sweep)",
  'files/upload-partial GetItem FOLDER': 'a partial upload without a token: tests/http/folders-open.test.ts',
  'files/upload-partial UpdateItem THROTTLE':
    'a partial upload without a token: tests/http/folders-open.test.ts',
  'folders/delete PutObjectTagging files/':
    "a presigned upload's file deleted while its URL may be valid, as files/delete: tests/http/presigned-uploads.test.ts",
  'files/transaction-delete PutObjectTagging files/':
    "a presigned upload's file deleted while its URL may be valid, as files/delete: tests/http/presigned-uploads.test.ts",
  'users/continue-deletions DeleteItem FOLDER':
    "the worker runs the deletion step users/delete runs in the flow (folders' owner and member items)",
  'files/upload DeleteItem USER': 'reclaim: tests/http/presigned-uploads.test.ts',
  'files/upload-start DeleteItem USER': 'reclaim: tests/http/presigned-uploads.test.ts',
  'files/upload-start Query USER': 'reclaim: tests/http/presigned-uploads.test.ts',
  'files/upload-start DeleteObject files/': 'reclaim: tests/http/presigned-uploads.test.ts',
  'files/upload-partial DeleteObject files/':
    'reclaim, through the receiveChunk /api/upload shares: tests/http/chunked-uploads.test.ts',
  'thumbnails/make DeleteObject thumbnails/':
    'a file deleted while its thumbnail is made: tests/http/thumbnails.test.ts',
  'files/raw GetObject thumbnails/':
    'an image over 5 MB: its stable og:image link: tests/http/thumbnails.test.ts',
  'view/page GetObject thumbnails/':
    'an image over 5 MB with a view limit: og:image presigned: tests/http/thumbnails.test.ts',
  'view/link GetObject thumbnails/':
    "/u/'s page is view/page's code (presentViewPage): its og:image presigned, as view/page's above",
  'view/unlock GetObject thumbnails/':
    'an image over 5 MB with a password: og:image presigned: tests/http/thumbnails.test.ts',
  'view/unlock UpdateItem FOLDER':
    "a protected file in a folder viewed through the form: its view moves its member item's views keys, as view/page's",
  'view/folder GetObject thumbnails/':
    'an image with a thumbnail in a public folder: its preview is the presigned thumbnail (view/folder-cards.ts)',
  'user/export-start UpdateItem USER': 'a request object S3 refused: tests/http/exports.test.ts',
  'user/export-start DeleteItem USER': 'a request object S3 refused: tests/http/exports.test.ts',
  'exports/make DeleteObject exports/':
    'an export deleted while its run finished: tests/http/exports.test.ts',
  'files/raw BatchGetItem FILEVIEWS':
    'a popular file with maxViews: its shards read: tests/http/file-views.test.ts',
  'files/raw UpdateItem FILEVIEWS':
    'a popular file (past POPULAR_AFTER views): tests/http/file-views.test.ts',
  'view/page GetItem USER':
    'a count refused by the file item (popular meanwhile, or a race for maxViews): tests/http/file-views.test.ts',
  'view/page BatchGetItem FILEVIEWS':
    'a popular file with maxViews: its shards read: tests/http/file-views.test.ts',
  'view/page UpdateItem FILEVIEWS':
    'a popular file (past POPULAR_AFTER views): tests/http/file-views.test.ts',
  'view/link GetItem USER':
    'a count refused by the file item (popular meanwhile, or a race for maxViews): tests/http/file-views.test.ts',
  'view/link BatchGetItem FILEVIEWS':
    'a popular file with maxViews: its shards read: tests/http/file-views.test.ts',
  'view/link UpdateItem FILEVIEWS':
    'a popular file (past POPULAR_AFTER views): tests/http/file-views.test.ts',
  'view/unlock GetItem USER': "the form's count refused by the file item, as view/page's above",
  'view/unlock BatchGetItem FILEVIEWS':
    "a popular protected file with maxViews, counted as view/page's above",
  'view/unlock UpdateItem FILEVIEWS': "a popular protected file, counted as view/page's above",
  'files/list BatchGetItem FILEVIEWS':
    'a popular file (past POPULAR_AFTER views): tests/http/file-views.test.ts',
  'files/get BatchGetItem FILEVIEWS':
    'a popular file (past POPULAR_AFTER views): tests/http/file-views.test.ts',
  'files/patch BatchGetItem FILEVIEWS':
    'a popular file (past POPULAR_AFTER views): tests/http/file-views.test.ts',
  'files/delete BatchGetItem FILEVIEWS':
    'a popular file (past POPULAR_AFTER views): tests/http/file-views.test.ts',
  'files/delete BatchWriteItem FILEVIEWS':
    'a popular file (past POPULAR_AFTER views): tests/http/file-views.test.ts',
  'user/recent BatchGetItem FILEVIEWS':
    'a popular file (past POPULAR_AFTER views): tests/http/file-views.test.ts',
  'metrics/daily BatchGetItem FILEVIEWS':
    "a popular file's views, summed as files/get's: tests/http/file-views.test.ts",
  'users/delete BatchWriteItem FILEVIEWS':
    "a popular file's counters, deleted as files/delete's: tests/http/file-views.test.ts",
  'users/continue-deletions BatchWriteItem FILEVIEWS':
    "the worker runs the deletion step users/delete runs (a popular file's counters)",
};

/** The thumbnail function as S3 invokes it (no route: its uses are attributed by hand). */
const thumbnailHandler = async (event: ReturnType<typeof s3Event>) =>
  ((await loadHandler('thumbnails/make')) as unknown as (event: unknown) => Promise<{ outcomes: unknown[] }>)(
    event,
  );

/** The export function as S3 invokes it on a request object, with Lambda's time left. */
async function runExportFunction(key: string, timeLeftMs: number) {
  current = 'exports/make';
  try {
    const handler = (await loadHandler('exports/make')) as unknown as (
      event: unknown,
      context: unknown,
    ) => Promise<{ outcomes: { outcome: string }[] }>;
    const ran = await handler(s3Event(bucketName, key), { getRemainingTimeInMillis: () => timeLeftMs });
    return ran.outcomes.map((each) => each.outcome);
  } finally {
    current = undefined;
  }
}

/** The expiry sweep as its schedule starts it (no route: its uses are attributed by hand). */
async function sweep() {
  current = 'files/expire';
  try {
    return await ((await loadHandler('files/expire')) as unknown as (event: unknown) => Promise<unknown>)(
      scheduledEvent(),
    );
  } finally {
    current = undefined;
  }
}

/** The view totals as the table's stream feeds them, up to now (no route: attributed by hand). */
async function viewTotals() {
  current = 'views/totals';
  try {
    await streamDrained();
  } finally {
    current = undefined;
  }
}

/** The daily metrics job as its schedule starts it (no route: its uses are attributed by hand). */
async function dailyMetrics() {
  current = 'metrics/daily';
  try {
    return await ((await loadHandler('metrics/daily')) as unknown as (event: unknown) => Promise<unknown>)(
      scheduledEvent(),
    );
  } finally {
    current = undefined;
  }
}

/**
 * The webhook deliverer as Lambda invokes it (no route: its uses are attributed by hand), a cold
 * start's: it reads the settings for the event's target (none set here: nothing is sent).
 */
async function deliverOnce() {
  current = 'webhooks/deliver';
  forgetSettings();
  try {
    const deliver = (await loadHandler('webhooks/deliver')) as unknown as (
      event: unknown,
    ) => Promise<unknown>;
    const event = {
      id: 'grants',
      type: 'upload',
      target: 'http',
      occurredAt: new Date().toISOString(),
      user: { id: 'u', username: 'u', role: 'USER' },
      link: { returned: 'https://example.com/u/a', raw: 'https://example.com/raw/a' },
    };
    expect(await deliver(event)).toEqual({ outcome: 'no-target' });
  } finally {
    current = undefined;
  }
}

/**
 * A user with a linked provider account, a passkey, a file, a short link and a stray object under
 * `uploads/`, whose DELETE finds no time left (202: only marked); the deletions worker, run as its
 * schedule starts it, deletes the rest.
 */
async function deletedByTheWorker(admin: CallOptions, provider: OidcProvider) {
  const [username, password] = [uniqueName('late'), 'a late passphrase'];
  const created = await request('POST', '/api/users', { ...admin, json: { username, password } });
  const userId = created.body.id as string;
  const login = await request('POST', '/api/auth/login', { json: { username, password } });
  const session = { cookie: cookieValue(login.cookies[0]) };
  const linked = await providerSignIn(
    provider,
    { sub: uniqueName('idp-late'), username },
    { ...session, link: true, send: request },
  );
  expect(linked.headers.location).toBe('/settings?linked=oidc');
  const options = await request('POST', '/api/user/passkeys/options', session);
  const { response } = register(options.body);
  expect((await request('POST', '/api/user/passkeys', { ...session, json: { response } })).status).toBe(200);
  const token = (await request('GET', '/api/user/token', session)).body.token as string;
  const file = multipart([{ fileName: 'late.txt', type: 'text/plain', content: 'late' }]);
  const uploaded = await request('POST', '/api/upload', {
    token,
    raw: file.body,
    headers: { 'content-type': file.contentType },
  });
  expect(uploaded.status).toBe(200);
  await s3.send(new PutObjectCommand({ Bucket: bucketName, Key: `uploads/${userId}/stray`, Body: 'stray' }));
  // An export's zip (what the export function writes), deleted with its user.
  await s3.send(new PutObjectCommand({ Bucket: bucketName, Key: `exports/${userId}/old.zip`, Body: 'zip' }));
  const link = await request('POST', '/api/user/urls', {
    token,
    json: { destination: 'https://example.com/late', vanity: uniqueName('late') },
  });
  expect((await request('GET', `/go/${link.body.code}`)).status).toBe(302);
  // Both as Lambda runs them: the DELETE with no time left, the worker as its schedule starts it.
  const run = async (handler: string, event: unknown, context?: unknown) => {
    current = handler;
    try {
      const invoke = (await loadHandler(handler)) as unknown as (
        event: unknown,
        context: unknown,
      ) => Promise<unknown>;
      return await invoke(event, context);
    } finally {
      current = undefined;
    }
  };
  const deletion = routeEvent(
    requestEvent('DELETE', `/api/users/${userId}`, { ...admin, json: { delete: true } }),
  ).event;
  const noTimeLeft = { awsRequestId: 'grants', getRemainingTimeInMillis: () => 0 };
  expect(await run('users/delete', deletion, noTimeLeft)).toMatchObject({ statusCode: 202 });
  expect(await run('users/continue-deletions', scheduledEvent())).toEqual({ finished: 1, left: 0 });
  expect((await request('GET', `/api/users/${userId}`, admin)).status).toBe(404);
}

const specs = functionSpecs();
const specOf = (handler: string) => specs.find((spec) => spec.handler === handler) as FunctionSpec;

describe('every request the code sends is within its function grant, and every grant is used', () => {
  const password = 'correct horse battery';
  const newPassword = 'another long passphrase';
  // Sign-in with a provider: a real OIDC provider process, sign-up by provider allowed.
  let provider: OidcProvider;
  const signInAt = (
    account: string,
    options: { cookie?: string; link?: boolean; viaCallbackPath?: boolean } = {},
  ) => providerSignIn(provider, { sub: account, username: account }, { ...options, send: request });
  afterAll(() => provider.stop());

  // Every route's flow, bcrypt and image decoding included: over 30 s on the shared, loaded machine.
  beforeAll(async () => {
    provider = await startOidcProvider();
    Object.assign(process.env, provider.env({ OAUTH_SIGNUP: 'true' }), {
      PASSKEY_ORIGIN: 'http://localhost:3000',
    });
    // First run: this file's table has no user yet.
    expect((await request('GET', '/api/setup')).body).toEqual({ firstSetup: true, codeRequired: false });
    // A name whose folded form differs from its lowercase one: the claim checks the pre-folding key too.
    const admin = `Straße-${uniqueName('admin')}`;
    expect((await request('POST', '/api/setup', { json: { username: admin, password } })).status).toBe(200);
    expect(
      (await request('POST', '/api/auth/login', { json: { username: admin, password: 'wrong one!' } }))
        .status,
    ).toBe(401);
    const login = await request('POST', '/api/auth/login', { json: { username: admin, password } });
    const adminCookie = cookieValue(login.cookies[0]);
    const self = { cookie: adminCookie };
    expect((await request('GET', '/api/user', self)).status).toBe(200);
    // The server settings (issue 38): read, changed.
    expect((await request('GET', '/api/server/settings', self)).status).toBe(200);
    const settings = { websiteTitle: 'Grants', filesMaxFileSize: '1gb', filesDisabledExtensions: ['exe'] };
    expect((await request('PATCH', '/api/server/settings', { ...self, json: settings })).status).toBe(200);
    // Invites and registration with one (issue 38).
    const invited = await request('POST', '/api/auth/invites', {
      ...self,
      json: { expiresAt: '1d', maxUses: 2 },
    });
    expect(invited.status).toBe(200);
    expect((await request('GET', '/api/auth/invites', self)).status).toBe(200);
    expect((await request('GET', `/api/auth/invites/${invited.body.code}`, self)).status).toBe(200);
    expect((await request('GET', `/api/auth/invites/${invited.body.id}`, self)).status).toBe(200);
    const registration = { username: `Straße-${uniqueName('reg')}`, password, code: invited.body.code };
    expect((await request('POST', '/api/auth/register', { json: registration })).status).toBe(200);
    expect((await request('DELETE', `/api/auth/invites/${invited.body.id}`, self)).status).toBe(200);
    // Provider sign-in: the list; a link from settings; a sign-in by the linked account; a sign-up
    // (a name whose folded form differs: its claim checks the pre-folding key too); the unlink.
    expect((await request('GET', '/api/server/public')).body.signInProviders).toEqual([
      { id: 'oidc', name: 'Test ID' },
    ]);
    const adminAccount = uniqueName('idp-admin');
    expect((await signInAt(adminAccount, { ...self, link: true })).headers.location).toBe(
      '/settings?linked=oidc',
    );
    expect((await signInAt(adminAccount)).headers.location).toBe('/');
    expect((await signInAt(`Straße-${uniqueName('idp')}`)).headers.location).toBe('/');
    // The same answers taken on `/callback`, the other function that may take them.
    const viaCallbackPath = true;
    expect((await signInAt(adminAccount, { viaCallbackPath })).headers.location).toBe('/');
    expect((await signInAt(`Straße-${uniqueName('idp')}`, { viaCallbackPath })).headers.location).toBe('/');
    expect((await request('GET', '/api/auth/oauth', self)).body).toHaveLength(1);
    expect(
      (await request('DELETE', '/api/auth/oauth', { ...self, json: { provider: 'OIDC' } })).body,
    ).toEqual([]);
    // Linked again, then unlinked by the older route.
    expect((await signInAt(uniqueName('idp-admin'), { ...self, link: true })).headers.location).toBe(
      '/settings?linked=oidc',
    );
    expect((await request('DELETE', '/api/user/oauth', { ...self, json: { provider: 'oidc' } })).status).toBe(
      200,
    );
    expect((await request('GET', '/api/healthcheck')).status).toBe(200);
    expect((await request('GET', '/api/version', self)).status).toBe(200);
    expect((await request('GET', '/api/user/avatar', self)).status).toBe(404);
    expect((await request('GET', '/api/user/token', self)).status).toBe(200);
    expect((await request('PATCH', '/api/user/token', self)).status).toBe(200);
    // TOTP: the offer, enrolment (its code a step back, so this step's code is still unused; a
    // refused enrolment writes nothing and is tried again when a step boundary made it too old), a
    // login that asks for the code and one that gives it, a wrong code to turn it off (a counted
    // guess), then a recovery code that does.
    expect((await request('GET', '/api/user/mfa/totp', self)).status).toBe(200);
    const { secret } = (await request('GET', '/api/user/mfa/totp', self)).body;
    const enrolled = await acceptedAtOneStep(
      (step) =>
        request('POST', '/api/user/mfa/totp', { ...self, json: { secret, code: codeAt(secret, step - 1) } }),
      (answer) => answer.status === 200,
    );
    expect(enrolled.status).toBe(200);
    const adminLogin = { username: admin, password };
    expect((await request('POST', '/api/auth/login', { json: adminLogin })).body).toEqual({ totp: true });
    const withCode = { ...adminLogin, code: codeAt(secret, stepNow() + 1) };
    expect((await request('POST', '/api/auth/login', { json: withCode })).status).toBe(200);
    // A provider sign-in of the account, TOTP on: no session until a code comes (POST /api/auth/totp).
    const totpAccount = uniqueName('idp-admin');
    expect((await signInAt(totpAccount, { ...self, link: true })).headers.location).toBe(
      '/settings?linked=oidc',
    );
    const pending = await signInAt(totpAccount);
    expect(pending.headers.location).toBe('/login?totp=oidc');
    const pendingCookie = cookieValue(pending.cookies.find((value) => value.startsWith('service_pending=')));
    const owed = { cookie: pendingCookie, json: { code: enrolled.body.recoveryCodes[1] } };
    expect((await request('POST', '/api/auth/totp', owed)).status).toBe(200);
    expect((await request('GET', '/api/auth/oauth', self)).body).toHaveLength(1);
    expect(
      (await request('DELETE', '/api/auth/oauth', { ...self, json: { provider: 'OIDC' } })).body,
    ).toEqual([]);
    expect(
      (await request('DELETE', '/api/user/mfa/totp', { ...self, json: { code: '000000' } })).status,
    ).toBe(400);
    const recovery = { code: enrolled.body.recoveryCodes[0] };
    expect((await request('DELETE', '/api/user/mfa/totp', { ...self, json: recovery })).status).toBe(200);
    const avatar = `data:image/png;base64,${PNG_1X1.toString('base64')}`;
    const patched = await request('PATCH', '/api/user', {
      ...self,
      json: { username: `Maß-${uniqueName('renamed')}`, avatar, view: { enabled: true, embedTitle: 'x' } },
    });
    expect(patched.status).toBe(200);
    expect((await request('GET', '/api/user/avatar', self)).status).toBe(200);
    expect(
      (await request('PATCH', '/api/user', { ...self, json: { password: newPassword, avatar: null } }))
        .status,
    ).toBe(200);

    // Administration of another user.
    const created = await request('POST', '/api/users', {
      ...self,
      json: { username: `Fuß-${uniqueName('user')}`, password, avatar },
    });
    expect(created.status).toBe(200);
    const userId = created.body.id as string;
    expect((await request('GET', '/api/users', self)).status).toBe(200);
    expect((await request('GET', `/api/users/${userId}`, self)).status).toBe(200);
    const username = `Gruß-${uniqueName('member')}`;
    // Room for three files: enough to hit the quota inside the write transactions below.
    const quota = { filesQuota: 'BY_FILES', maxFiles: 3, maxBytes: null };
    const edited = await request('PATCH', `/api/users/${userId}`, {
      ...self,
      json: { username, password, role: 'ADMIN', quota, avatar },
    });
    expect(edited.status).toBe(200);
    expect((await request('PATCH', `/api/users/${userId}`, { ...self, json: { avatar: null } })).status).toBe(
      200,
    );

    // That user's files: direct upload, listings in every order and a search, one file's routes.
    const member = await request('POST', '/api/auth/login', { json: { username, password } });
    const memberCookie = cookieValue(member.cookies[0]);
    const token = (await request('GET', '/api/user/token', { cookie: memberCookie })).body.token as string;
    // A linked provider account, freed with the user's deletion below.
    const memberLink = await signInAt(uniqueName('idp-member'), { cookie: memberCookie, link: true });
    expect(memberLink.headers.location).toBe('/settings?linked=oidc');
    // Passkeys: added, renamed, signed in with, deleted; the member's second one goes with the member.
    const memberSession = { cookie: memberCookie };
    const addPasskey = async () => {
      const options = await request('POST', '/api/user/passkeys/options', memberSession);
      const { credential, response } = register(options.body);
      expect(
        (await request('POST', '/api/user/passkeys', { ...memberSession, json: { response } })).status,
      ).toBe(200);
      return credential;
    };
    const passkey = await addPasskey();
    await addPasskey();
    const passkeyPath = `/api/user/passkeys/${passkey.id.toString('base64url')}`;
    expect((await request('PATCH', passkeyPath, { ...memberSession, json: { name: 'Laptop' } })).status).toBe(
      200,
    );
    const passkeyOptions = await request('POST', '/api/auth/passkey/options');
    expect(
      (await request('POST', '/api/auth/passkey', { json: assert(passkey, passkeyOptions.body) })).status,
    ).toBe(200);
    expect((await request('DELETE', passkeyPath, memberSession)).status).toBe(200);
    const { body, contentType } = multipart([
      { fileName: 'a.txt', type: 'text/plain', content: 'first' },
      { fileName: 'b.png', type: 'image/png', content: PNG_1X1 },
    ]);
    const uploaded = await request('POST', '/api/upload', {
      token,
      raw: body,
      headers: { 'content-type': contentType },
    });
    expect(uploaded.status).toBe(200);
    const [first, second] = uploaded.body.files as { id: string; url: string }[];
    // S3's object-created event for each: the image gets its thumbnail, the text file none.
    for (const file of [first, second]) {
      current = 'thumbnails/make';
      try {
        const made = await thumbnailHandler(s3Event(bucketName, `files/${userId}/${file?.id}`));
        expect(made.outcomes).toHaveLength(1);
      } finally {
        current = undefined;
      }
    }
    // Two more fit the request's own check but not the stored count: the bytes are removed again.
    const overQuota = await request('POST', '/api/upload', {
      token,
      raw: body,
      headers: { 'content-type': contentType },
    });
    expect(overQuota.status).toBe(413);
    for (const sortBy of SORT_FIELDS) {
      for (const query of [`sortBy=${sortBy}&perpage=1`, `sortBy=${sortBy}&perpage=1&page=2`]) {
        expect((await request('GET', `/api/user/files?${query}`, { token })).status).toBe(200);
      }
    }
    const searched = await request('GET', '/api/user/files?searchField=name&searchQuery=a', { token });
    expect(searched.status).toBe(200);
    expect((await request('GET', `/api/user/files/${first?.id}`, { token })).status).toBe(200);
    // By name, as Zipline's (the name's claim first); the administrator's listing of this user's files.
    const byName = (file: typeof first) =>
      `/api/user/files/${new URL(file?.url as string).pathname.split('/').pop()}`;
    expect((await request('GET', byName(first), { token })).status).toBe(200);
    expect((await request('GET', `/api/user/files?id=${userId}`, self)).status).toBe(200);
    const edit = { favorite: true, originalName: 'renamed.txt', maxViews: 5 };
    expect((await request('PATCH', `/api/user/files/${first?.id}`, { token, json: edit })).status).toBe(200);
    expect((await request('GET', new URL(first?.url as string).pathname)).status).toBe(200);
    expect((await request('GET', `/api/user/files/${first?.id}/raw`, { token })).status).toBe(200);
    // The view page and its oEmbed answer (view pages and embeds on); a text file's page reads its
    // start from S3.
    const viewOn = { view: { enabled: true, embed: true } };
    expect((await request('PATCH', '/api/user', { token, json: viewOn })).status).toBe(200);
    const firstName = new URL(first?.url as string).pathname.split('/').pop();
    expect((await request('GET', `/view/${firstName}`)).status).toBe(200);
    expect((await request('GET', `/api/oembed/${firstName}`)).status).toBe(200);
    // The image's page (og:image is its thumbnail), its thumbnail for the owner's grid, and its page
    // through the password form once it has one; it stays, so its user's deletion removes a thumbnail.
    const secondName = new URL(second?.url as string).pathname.split('/').pop();
    expect((await request('GET', `/view/${secondName}`)).status).toBe(200);
    expect((await request('GET', `/api/user/files/${second?.id}/thumbnail`, { token })).status).toBe(302);
    const locked = { token, json: { password: 'image secret' } };
    expect((await request('PATCH', `/api/user/files/${second?.id}`, locked)).status).toBe(200);
    const imageForm = await request('POST', `/view/${secondName}`, {
      raw: 'password=image+secret',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(imageForm.status).toBe(200);
    // The owner's view totals, from the table's stream (while the viewed files are still there).
    await viewTotals();
    // Zipline's password check: a wrong guess (counted) and the right password.
    const check = (password: string) =>
      request('POST', `/api/user/files/${secondName}/password`, { json: { password } });
    expect((await check('wrong')).status).toBe(404);
    expect((await check('image secret')).status).toBe(200);
    // A rename by name (the claims move in the file's transaction), then the delete by the new name.
    // Tags (issue 35): created, listed, read, renamed; put on a file (memberships written), taken
    // off (deleted) and put on again; the file read with its tags, listed by tag; an administrator's
    // read of the user's tags; one tag deleted off the file, the other kept for the rename and the
    // file's deletion below (its memberships go with it).
    const newTag = async (name: string) =>
      (await request('POST', '/api/user/tags', { token, json: { name, color: '#123' } })).body.id as string;
    const [gone, keptTag] = [await newTag('grants'), await newTag('kept')];
    expect((await request('GET', '/api/user/tags', { token })).body).toHaveLength(2);
    expect((await request('GET', `/api/user/tags/${gone}`, { token })).status).toBe(200);
    expect(
      (await request('PATCH', `/api/user/tags/${gone}`, { token, json: { name: 'granted' } })).status,
    ).toBe(200);
    const tagFile = (tags: string[]) => request('PATCH', byName(first), { token, json: { tags } });
    for (const tags of [[gone, keptTag], [], [gone, keptTag]]) expect((await tagFile(tags)).status).toBe(200);
    expect((await request('GET', byName(first), { token })).body.tags).toHaveLength(2);
    const byTag = await request('GET', `/api/user/files?searchField=tags&searchQuery=${gone}`, { token });
    expect(byTag.body.page).toHaveLength(1);
    expect((await request('GET', `/api/users/${userId}/tags`, self)).body).toHaveLength(2);
    expect((await request('DELETE', `/api/user/tags/${gone}`, { token })).status).toBe(200);
    const renamed = await request('PATCH', byName(first), { token, json: { name: uniqueName('renamed') } });
    expect(renamed.status).toBe(200);
    expect((await request('DELETE', `/api/user/files/${renamed.body.name}`, { token })).status).toBe(200);
    // A chunked upload with a password: the first chunk is staged under uploads/, the last streams it
    // into the one part; then /raw with a wrong and the right password (counted guesses).
    const chunk = async (start: number, content: string, last: boolean) => {
      const part = multipart([{ fileName: 'blob', content }]);
      return request('POST', '/api/upload', {
        token,
        raw: part.body,
        headers: {
          'content-type': part.contentType,
          'content-range': `bytes ${start}-${start + content.length}/${MIN_CHUNK_BYTES + 5}`,
          'x-zipline-p-identifier': 'grants',
          'x-zipline-p-filename': 'c.txt',
          'x-zipline-p-lastchunk': String(last),
          'x-zipline-password': 'secret',
        },
      });
    };
    expect((await chunk(0, 'c'.repeat(MIN_CHUNK_BYTES), false)).status).toBe(200);
    const chunked = await chunk(MIN_CHUNK_BYTES, 'ed!!!', true);
    expect(chunked.status).toBe(200);
    // Its link is the view page now (view pages on); the password goes to the download.
    const protectedPath = `/raw/${chunked.body.files[0].name as string}`;
    expect((await request('GET', `${protectedPath}?pw=wrong`)).status).toBe(404);
    expect((await request('GET', `${protectedPath}?pw=secret`)).status).toBe(200);
    // Its view page's password form: a wrong guess (counted) and the right password (the view).
    const form = (password: string) =>
      request('POST', chunked.body.files[0].url.replace(/^https?:\/\/[^/]+/, ''), {
        raw: new URLSearchParams({ password }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
    expect((await form('wrong')).status).toBe(404);
    expect((await form('secret')).status).toBe(200);
    // It expires, and the sweep deletes it (its room goes back for the presigned flows below).
    const chunkedId = chunked.body.files[0].id as string;
    const expire = { token, json: { deletesAt: new Date(Date.now() + 86_400_000).toISOString() } };
    expect((await request('PATCH', `/api/user/files/${chunkedId}`, expire)).status).toBe(200);
    // The day passes (the API refuses a past expiry): written through the store, outside any grant.
    await expireFile(userId, chunkedId);
    expect(await sweep()).toMatchObject({ expired: 1 });

    // Folders (issue 35): the partial and presigned uploads below go into one (x-zipline-folder).
    const intoFolder = {
      'x-zipline-folder': (await request('POST', '/api/user/folders', { token, json: { name: 'g' } })).body
        .id,
    };
    // Zipline 4.4's partial upload: the first chunk gets the identifier, the last completes; a second
    // upload is listed as incomplete and abandoned (its staged chunk deleted).
    const partial = async (start: number, content: string, total: number, identifier?: string) => {
      const part = multipart([{ fileName: 'blob', content }]);
      return request('POST', '/api/upload/partial', {
        token,
        raw: part.body,
        headers: {
          'content-type': part.contentType,
          'content-range': `bytes ${start}-${start + content.length}/${total}`,
          'x-zipline-p-filename': 'p.txt',
          'x-zipline-p-lastchunk': String(start + content.length === total),
          'x-zipline-password': 'secret',
          ...intoFolder,
          ...(identifier ? { 'x-zipline-p-identifier': identifier } : {}),
        },
      });
    };
    const opened = await partial(0, 'p'.repeat(MIN_CHUNK_BYTES), MIN_CHUNK_BYTES + 3);
    expect(opened.status).toBe(200);
    const partialIdentifier = opened.body.partialIdentifier as string;
    expect((await partial(MIN_CHUNK_BYTES, 'p!!', MIN_CHUNK_BYTES + 3, partialIdentifier)).status).toBe(200);
    expect((await partial(0, 'q'.repeat(MIN_CHUNK_BYTES), 2 * MIN_CHUNK_BYTES)).status).toBe(200);
    const incomplete = await request('GET', '/api/user/files/incomplete', { token });
    expect(incomplete.body).toHaveLength(1);
    const abandon = { token, json: { id: [incomplete.body[0].id as string] } };
    expect((await request('DELETE', '/api/user/files/incomplete', abandon)).body).toEqual({ count: 1 });

    // Presigned uploads: one completes; one is PUT with another size than declared (s3rver takes it,
    // S3 would not), so completion removes it; one stays pending until its user is deleted.
    const startUpload = async (put?: Buffer) => {
      const started = await request('POST', '/api/user/files/uploads', {
        token,
        json: { originalName: 'big.bin', size: 15, type: 'application/octet-stream' },
        headers: intoFolder,
      });
      expect(started.status).toBe(200);
      const complete = `/api/user/files/uploads/${started.body.id}/complete`;
      if (put) {
        // Nothing PUT yet, and S3 answers the HEAD with 403 (no bucket-wide listing): a listing decides.
        const forbidden = injectS3Fault('HeadObjectCommand', headForbidden);
        try {
          expect((await request('POST', complete, { token })).status).toBe(400);
        } finally {
          forbidden.stop();
        }
        const stored = await fetch(started.body.url, {
          method: 'PUT',
          body: put,
          headers: started.body.headers,
        });
        expect(stored.status).toBe(200);
      }
      return complete;
    };
    // Two complete: one is deleted, one expires, both while their URL may still be valid (so their
    // objects are tagged for the lifecycle rule instead of deleted).
    for (const end of ['deleted', 'expired']) {
      const completed = await request('POST', await startUpload(Buffer.from('presigned bytes')), { token });
      expect(completed.status).toBe(200);
      const path = `/api/user/files/${completed.body.files[0].id}`;
      if (end === 'deleted') expect((await request('DELETE', path, { token })).status).toBe(200);
      else {
        expect((await request('PATCH', path, expire)).status).toBe(200);
        await expireFile(userId, completed.body.files[0].id);
        expect(await sweep()).toMatchObject({ expired: 1 });
      }
    }
    expect((await request('POST', await startUpload(Buffer.from('not fifteen')), { token })).status).toBe(
      400,
    );
    await startUpload();

    // What an earlier version's presigned upload left under `uploads/` goes with its user too.
    await s3.send(
      new PutObjectCommand({ Bucket: bucketName, Key: `uploads/${userId}/left-over`, Body: 'old' }),
    );
    // Short links (issue 34): one with a vanity and a password, listed, read, unlocked by both
    // routes, changed (a limit set: its views so far are read), followed, deleted; another followed
    // and kept, so the user's deletion releases its names and counters.
    const shortened = await request('POST', '/api/user/urls', {
      token,
      json: { destination: 'https://example.com/grants', vanity: uniqueName('grants') },
      headers: { 'x-zipline-password': 'link secret' },
    });
    expect(shortened.status).toBe(200);
    const linkPath = `/api/user/urls/${shortened.body.id}`;
    expect((await request('GET', '/api/user/urls?searchQuery=grants', { token })).body).toHaveLength(1);
    expect((await request('GET', linkPath, { token })).status).toBe(200);
    expect(
      (await request('POST', `${linkPath}/password`, { json: { password: 'link secret' } })).status,
    ).toBe(200);
    expect((await request('GET', `/go/${shortened.body.code}`)).status).toBe(302);
    expect((await request('GET', `/view/url/${shortened.body.id}`)).status).toBe(200);
    const unlocked = await request('POST', `/view/url/${shortened.body.id}`, {
      raw: new URLSearchParams({ password: 'link secret' }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(unlocked.status).toBe(302);
    const relinked = { vanity: uniqueName('moved'), password: null, maxViews: 5 };
    expect((await request('PATCH', linkPath, { token, json: relinked })).status).toBe(200);
    expect((await request('DELETE', linkPath, { token })).status).toBe(200);
    const kept = await request('POST', '/api/user/urls', {
      token,
      json: { destination: 'https://example.com/kept', vanity: uniqueName('kept') },
    });
    expect((await request('GET', `/go/${kept.body.code}`)).status).toBe(302);
    // Instance metrics (issue 36): the daily job counts the user's files and links, the admin reads them.
    expect(await dailyMetrics()).toMatchObject({ urls: 1 });
    expect((await request('GET', '/api/stats', self)).status).toBe(200);

    // Home and sessions (issue 36): the figures, the newest files, the sessions listed, and one
    // ended (a second sign-in of the member's).
    expect((await request('GET', '/api/user/stats', { token })).status).toBe(200);
    expect((await request('GET', '/api/user/recent?take=5', { token })).status).toBe(200);
    const elsewhere = await request('POST', '/api/auth/login', { json: { username, password } });
    const listed = await request('GET', '/api/user/sessions', { cookie: cookieValue(elsewhere.cookies[0]) });
    const ended = { ...memberSession, json: { sessionId: listed.body.current.id } };
    expect((await request('DELETE', '/api/user/sessions', ended)).status).toBe(200);

    // Folders: created with a file, read, changed, a file moved between two and out, listed by
    // folder, bulk favourite, move and delete; one deleted keeping its files, one with them.
    const folderFile = async (folder?: string) => {
      const part = multipart([{ fileName: 'in-folder.txt', content: 'folder bytes' }]);
      const sent = await request('POST', '/api/upload', {
        token,
        raw: part.body,
        headers: { 'content-type': part.contentType, ...(folder ? { 'x-zipline-folder': folder } : {}) },
      });
      expect(sent.status).toBe(200);
      return sent.body.files[0].id as string;
    };
    // Room for them (the quota of three files was for the flows above): written outside any grant.
    await updateUserQuota(userId, { filesQuota: 'BY_FILES', maxFiles: 100, maxBytes: null });
    const other = (await request('POST', '/api/user/folders', { token, json: { name: 'o' } })).body
      .id as string;
    const loose = await folderFile(other);
    const made = await request('POST', '/api/user/folders', { token, json: { name: 'f', files: [loose] } });
    expect(made.body._count).toEqual({ files: 1 });
    const folderPath = `/api/user/folders/${made.body.id}`;
    expect((await request('GET', '/api/user/folders', { token })).body.length).toBeGreaterThan(1);
    expect((await request('GET', folderPath, { token })).status).toBe(200);
    expect((await request('PATCH', folderPath, { token, json: { isPublic: true } })).status).toBe(200);
    expect((await request('GET', `/folder/${made.body.id}`)).status).toBe(200);
    expect((await request('PUT', `/api/user/folders/${other}`, { token, json: { id: loose } })).status).toBe(
      200,
    );
    expect((await request('PUT', folderPath, { token, json: { id: loose } })).status).toBe(200);
    expect((await request('GET', `/api/user/files?folder=${made.body.id}`, { token })).body.total).toBe(1);
    const bulk = (method: string, json: unknown) =>
      request(method, '/api/user/files/transaction', { token, json });
    // A tagged file's bulk favourite rewrites its membership (the tag listing's sort keys).
    const bulkTag = await request('POST', '/api/user/tags', { token, json: { name: 'bulk', color: '#123' } });
    const tagged = await request('PATCH', `/api/user/files/${loose}`, {
      token,
      json: { tags: [bulkTag.body.id] },
    });
    expect(tagged.status).toBe(200);
    expect((await bulk('PATCH', { files: [loose], favorite: true })).body.count).toBe(1);
    expect((await bulk('PATCH', { files: [loose], folder: other })).body.count).toBe(1);
    expect((await bulk('PATCH', { files: [loose], folder: null })).body.count).toBe(1);
    expect((await request('PUT', folderPath, { token, json: { id: loose } })).status).toBe(200);
    expect((await request('DELETE', folderPath, { token, json: { delete: 'file', id: loose } })).status).toBe(
      200,
    );
    expect((await bulk('DELETE', { files: [await folderFile(other)] })).body.count).toBe(1);
    await folderFile(other);
    expect(
      (await request('DELETE', `/api/user/folders/${other}`, { token, json: { delete: true } })).status,
    ).toBe(200);
    expect((await request('PUT', folderPath, { token, json: { id: loose } })).status).toBe(200);
    // A file in a folder: its member item follows a PATCH (PutItem FOLDER) and each view (UpdateItem
    // FOLDER: /raw, the view page, /u/); the public page shows its first lines (GetObject files/).
    const looseName = (await request('GET', `/api/user/files/${loose}`, { token })).body.name as string;
    const renaming = { token, json: { originalName: 'renamed.txt' } };
    expect((await request('PATCH', `/api/user/files/${loose}`, renaming)).status).toBe(200);
    for (const path of [
      `/raw/${looseName}`,
      `/view/${looseName}`,
      `/u/${looseName}`,
      `/folder/${made.body.id}`,
    ])
      expect((await request('GET', path)).status).toBe(200);
    // A bulk tag change: a membership taken off (DeleteItem USER), put back (its tag checked).
    const retag = (tags: unknown) => bulk('PATCH', { files: [loose], tags });
    expect((await retag({ remove: [bulkTag.body.id] })).body.count).toBe(1);
    expect((await retag({ add: [bulkTag.body.id] })).body.count).toBe(1);
    // An upload without a token into a folder open to uploads (counted per address).
    expect((await request('PATCH', folderPath, { token, json: { allowUploads: true } })).status).toBe(200);
    const anonymous = multipart([{ fileName: 'dropped.txt', content: 'dropped' }]);
    const dropped = await request('POST', '/api/upload', {
      raw: anonymous.body,
      headers: { 'content-type': anonymous.contentType, 'x-zipline-folder': made.body.id },
    });
    expect(dropped.status).toBe(200);
    expect((await request('DELETE', folderPath, { token, json: { delete: 'folder' } })).status).toBe(200);

    // Exports (issue 36): one made, listed, downloaded and deleted; one out of time (its upload
    // aborted); one made and kept, so the user's deletion deletes its zip.
    for (const timeLeft of [900_000, 0, 900_000]) {
      const started = await request('POST', '/api/user/export', { token });
      expect(started.status).toBe(200);
      const requestKey = `export-requests/${userId}/${started.body.export.id}.json`;
      const outcome = timeLeft ? 'completed' : 'failed';
      expect(await runExportFunction(requestKey, timeLeft)).toEqual([outcome]);
    }
    const exported = await request('GET', '/api/user/export', { token });
    const states = exported.body.map((each: { state: string }) => each.state);
    expect(states).toEqual(['completed', 'failed', 'completed']);
    const exportPath = `/api/user/export?id=${exported.body[2].id}`;
    expect((await request('GET', exportPath, { token })).status).toBe(302);
    expect((await request('DELETE', exportPath, { token })).status).toBe(200);

    // The user goes, with its files; the admin logs out both ways.
    const deleted = await request('DELETE', `/api/users/${userId}`, { ...self, json: { delete: true } });
    expect(deleted.status).toBe(200);
    await deletedByTheWorker(self, provider);
    await deliverOnce();
    expect((await request('GET', '/api/auth/logout', self)).status).toBe(200);
    const again = await request('POST', '/api/auth/login', {
      json: { username: patched.body.user.username, password: newPassword },
    });
    expect(
      (await request('POST', '/api/auth/logout', { cookie: cookieValue(again.cookies[0]) })).status,
    ).toBe(200);
    // The Zipline import's routes (issue 40), every path of each: tests/support/zipline-import.ts.
    await importFlow(request);
  }, 900_000);

  test('the flows reach every function that talks to AWS', () => {
    const reached = new Set(uses.map((use) => use.handler));
    const talking = specs.filter((spec) => Object.keys(spec.table).length || Object.keys(spec.bucket).length);
    expect(talking.map((spec) => spec.handler).filter((handler) => !reached.has(handler))).toEqual([]);
  });

  test('every request is allowed by its function grant', () => {
    const refused = uses
      .filter((use) => allowedBy(specOf(use.handler), use) === undefined)
      .map((use) => `${use.handler}: ${use.action} on ${use.target}`);
    expect([...new Set(refused)]).toEqual([]);
  });

  test('every declared grant is used', () => {
    const used = new Set(uses.map((use) => `${use.handler} ${allowedBy(specOf(use.handler), use)}`));
    const declared = specs.flatMap((spec) => [
      ...Object.entries(spec.table.items ?? {}).flatMap(([action, partitions]) =>
        (partitions ?? []).map((partition) => `${spec.handler} ${action} ${partition}`),
      ),
      ...(spec.table.indexes ?? []).map((index) => `${spec.handler} Query ${index}`),
      ...Object.entries(spec.bucket).flatMap(([action, prefixes]) =>
        (prefixes ?? []).map((prefix) => `${spec.handler} ${action} ${prefix}`),
      ),
    ]);
    expect(declared.filter((grant) => !used.has(grant) && !REACHED_ELSEWHERE[grant])).toEqual([]);
  });
});
