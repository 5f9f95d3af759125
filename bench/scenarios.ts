import { randomBytes } from 'node:crypto';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import sharp from 'sharp';
import { hashPassword } from '#shared/auth/password';
import { newSessionId, SESSION_COOKIE, sealSession } from '#shared/auth/session';
import { config } from '#shared/config';
import { MAX_PENDING_UPLOADS } from '#shared/files/pending';
import { routes } from '#shared/routes';
import { createUser } from '#shared/users/creation';
import type { Role } from '#shared/users/model';
import { addSession } from '#shared/users/sessions';
import { getUser } from '#shared/users/store';
import { loadHandler } from '../infra/local/dispatch.ts';
import { s3Event } from '../infra/local/s3.ts';
import { scheduledEvent } from '../infra/local/schedules.ts';
import { type CallOptions, call, cookieValue, requestEvent } from '../tests/support/client.ts';
import { multipart } from '../tests/support/multipart.ts';
import { PNG_1X1 } from '../tests/support/pixels.ts';
import type { EventScenario } from './cold-start.ts';

export type RequestLoad = 'standard' | 'password' | 'heavySetup';

/** One request as both paths send it: a payload-2.0 event to the handler, or HTTP to the runner. */
export interface BenchRequest {
  method: string;
  url: string;
  options: CallOptions;
}

export interface Scenario {
  /** `METHOD /path` plus how it authenticates when that matters. */
  name: string;
  /** Handler module under `functions/`, as the route table names it. */
  handler: string;
  /** Answer every request must get (anything else fails the benchmark). */
  status: number;
  /**
   * How many requests measure it: `password` hashes or verifies a bcrypt password per request;
   * `heavySetup` needs an upload as untimed setup before each request (fewer, to keep the run short).
   */
  load: RequestLoad;
  /** Builds request number `index`; untimed setup (a fresh session or user) happens here. */
  request(index: number): Promise<BenchRequest>;
  event(index: number): Promise<APIGatewayProxyEventV2>;
}

const PASSWORD = 'correct horse battery staple';
let serial = 0;
const uniqueName = (prefix: string) => `${prefix}-${process.pid}-${++serial}`;

async function signedIn(role: Role, passwordHash: string) {
  const username = uniqueName(`bench-${role.toLowerCase()}`);
  const user = await createUser({ username, passwordHash, role });
  const login = await call('POST', '/api/auth/login', { json: { username, password: PASSWORD } });
  if (login.status !== 200) throw new Error(`fixture login failed: ${login.text}`);
  const cookie = cookieValue(login.cookies[0]);
  const token = (await call('GET', '/api/user/token', { cookie })).body.token as string;
  return { id: user.id, username, cookie, token };
}

/** A fresh session for `userId`, written through the store (no bcrypt), as its cookie. */
async function freshSessionCookie(userId: string): Promise<string> {
  const user = await getUser(userId, { consistent: true });
  if (!user) throw new Error('fixture user is gone');
  const sessionId = newSessionId();
  const issuedAt = Date.now();
  await addSession(user, sessionId, issuedAt, config().maxSessions);
  return `${SESSION_COOKIE}=${await sealSession({ userId, sessionId, issuedAt })}`;
}

function scenario(
  name: string,
  method: string,
  path: string,
  status: number,
  build: (index: number) => CallOptions | Promise<CallOptions>,
  extra: { url?: (index: number) => string; load?: RequestLoad } = {},
): Scenario {
  const url = extra.url ?? (() => path);
  const route = routes.find((candidate) => candidate.method === method && candidate.path === path);
  const request = async (index: number): Promise<BenchRequest> => {
    const options = await build(index);
    return { method, url: url(index), options };
  };
  return {
    name,
    handler: route?.handler ?? 'fallback',
    status,
    load: extra.load ?? 'standard',
    request,
    event: async (index) => {
      const { method: verb, url: target, options } = await request(index);
      return requestEvent(verb, target, options);
    },
  };
}

/** A screenshot-sized upload as ShareX or a browser sends it: one 4 KiB PNG part. */
const UPLOAD_BYTES = 4096;

function uploadOptions(token: string, headers: Record<string, string> = {}): CallOptions {
  const { body, contentType } = multipart([
    { fileName: 'screenshot.png', type: 'image/png', content: randomBytes(UPLOAD_BYTES) },
  ]);
  return { token, raw: body, headers: { 'content-type': contentType, ...headers } };
}

/** Uploads one file through `POST /api/upload` (untimed setup) and answers its id and public name. */
async function uploadFile(
  token: string,
  headers: Record<string, string> = {},
): Promise<{ id: string; name: string }> {
  const response = await call('POST', '/api/upload', uploadOptions(token, headers));
  if (response.status !== 200) throw new Error(`fixture upload failed: ${response.text}`);
  return response.body.files[0] as { id: string; name: string };
}

/** Uploads a 1600×1200 PNG (untimed setup) and answers its id, public name and object key. */
async function uploadPicture(owner: { id: string; token: string }) {
  const { body, contentType } = multipart([
    {
      fileName: 'picture.png',
      type: 'image/png',
      content: await sharp({
        create: { width: 1600, height: 1200, channels: 3, background: { r: 40, g: 120, b: 200 } },
      })
        .png()
        .toBuffer(),
    },
  ]);
  const response = await call('POST', '/api/upload', {
    token: owner.token,
    raw: body,
    headers: { 'content-type': contentType },
  });
  if (response.status !== 200) throw new Error(`fixture picture upload failed: ${response.text}`);
  const { id, name } = response.body.files[0] as { id: string; name: string };
  return { id, name, key: `files/${owner.id}/${id}` };
}

/** The thumbnail function's outcome for an object, as S3's object-created event starts it. */
const madeThumbnail = (result: unknown) =>
  JSON.stringify((result as { outcomes?: unknown[] }).outcomes?.[0] ?? {}).includes('"made"');

/** Starts a presigned upload and PUTs its bytes to the URL, as a client does before completing it. */
async function presignedUploadAwaitingCompletion(token: string): Promise<string> {
  const started = await call('POST', '/api/user/files/uploads', {
    token,
    json: { originalName: 'recording.mp4', size: UPLOAD_BYTES, type: 'video/mp4' },
  });
  if (started.status !== 200) throw new Error(`fixture upload start failed: ${started.text}`);
  const put = await fetch(started.body.url, {
    method: 'PUT',
    body: randomBytes(UPLOAD_BYTES),
    headers: started.body.headers,
  });
  if (!put.ok) throw new Error(`fixture PUT to the presigned URL failed: ${put.status}`);
  return started.body.id as string;
}

/** Files of the listing fixture: more than one page of 15. */
const LISTED_FILES = 40;

/**
 * Every route of the table (one request that succeeds where it can be repeated), plus the fallback.
 * Fixtures: a USER with an avatar, an ADMIN acting on a USER, users dedicated to the requests that
 * change sessions or tokens so they do not disturb the others (a fresh one per token reset), a USER
 * with 40 small files, and a USER who uploads (so the listed library keeps its size).
 */
export async function benchScenarios(): Promise<{
  scenarios: Scenario[];
  objectEvents: EventScenario[];
  fixtures: { userId: string };
}> {
  const passwordHash = await hashPassword(PASSWORD);
  const [user, admin, loginUser, logoutUser, filesOwner, uploader] = [
    await signedIn('USER', passwordHash),
    await signedIn('ADMIN', passwordHash),
    await signedIn('USER', passwordHash),
    await signedIn('USER', passwordHash),
    await signedIn('USER', passwordHash),
    await signedIn('USER', passwordHash),
  ];
  const avatar = `data:image/png;base64,${PNG_1X1.toString('base64')}`;
  const patched = await call('PATCH', '/api/user', { token: user.token, json: { avatar } });
  if (patched.status !== 200) throw new Error(`fixture avatar failed: ${patched.text}`);
  const target = await createUser({ username: uniqueName('bench-target'), passwordHash, role: 'USER' });
  // Setup is done once per deployment; afterwards POST /api/setup is the cheap 403 measured here.
  await createUser(
    { username: uniqueName('bench-super'), passwordHash, role: 'SUPERADMIN' },
    { firstUser: true },
  );
  const file = await uploadFile(filesOwner.token);
  // The view page's owner has view pages and embeds on; `user`'s content changes are what the page shows.
  const viewOn = await call('PATCH', '/api/user', {
    token: user.token,
    json: { view: { enabled: true, embed: true } },
  });
  if (viewOn.status !== 200) throw new Error(`fixture view settings failed: ${viewOn.text}`);
  // An image's page as every image upload ends up: with its thumbnail (the image, the download and
  // og:image, three presigned URLs).
  const viewed = await uploadPicture(user);
  const thumbnailed = await (await loadHandler('thumbnails/make'))(
    s3Event(process.env.BUCKET_NAME as string, viewed.key) as never,
  );
  if (!madeThumbnail(thumbnailed))
    throw new Error(`fixture thumbnail failed: ${JSON.stringify(thumbnailed)}`);
  const locked = await uploadFile(user.token, { 'x-zipline-password': PASSWORD });
  for (let index = 1; index < LISTED_FILES; index++) await uploadFile(filesOwner.token);

  const scenarios = [
    scenario('GET /api/user (token)', 'GET', '/api/user', 200, () => ({ token: user.token })),
    scenario('GET /api/user (cookie)', 'GET', '/api/user', 200, () => ({ cookie: user.cookie })),
    scenario('GET /api/user/token', 'GET', '/api/user/token', 200, () => ({ token: user.token })),
    scenario('GET /api/user/avatar', 'GET', '/api/user/avatar', 200, () => ({ token: user.token })),
    scenario('PATCH /api/user (view)', 'PATCH', '/api/user', 200, (index) => ({
      token: user.token,
      json: { view: { content: `benchmark ${index}` } },
    })),
    scenario('GET /api/setup', 'GET', '/api/setup', 200, () => ({})),
    scenario('GET /api/healthcheck', 'GET', '/api/healthcheck', 200, () => ({})),
    scenario('GET /api/version', 'GET', '/api/version', 200, () => ({ token: user.token })),
    scenario('POST /api/setup (done: 403)', 'POST', '/api/setup', 403, () => ({
      json: { username: 'late-admin', password: PASSWORD },
    })),
    scenario(
      'POST /api/auth/login',
      'POST',
      '/api/auth/login',
      200,
      () => ({
        json: { username: loginUser.username, password: PASSWORD },
      }),
      { load: 'password' },
    ),
    scenario('POST /api/auth/logout', 'POST', '/api/auth/logout', 200, async () => ({
      cookie: await freshSessionCookie(logoutUser.id),
    })),
    scenario('GET /api/users', 'GET', '/api/users', 200, () => ({ token: admin.token })),
    scenario(
      'POST /api/users',
      'POST',
      '/api/users',
      200,
      () => ({
        token: admin.token,
        json: { username: uniqueName('bench-new'), password: PASSWORD },
      }),
      { load: 'password' },
    ),
    scenario('GET /api/users/{id}', 'GET', '/api/users/{id}', 200, () => ({ token: admin.token }), {
      url: () => `/api/users/${target.id}`,
    }),
    scenario(
      'PATCH /api/users/{id} (quota)',
      'PATCH',
      '/api/users/{id}',
      200,
      (index) => ({
        token: admin.token,
        json: { quota: { filesQuota: 'BY_FILES', maxBytes: null, maxFiles: index + 1 } },
      }),
      { url: () => `/api/users/${target.id}` },
    ),
    (() => {
      const doomed: string[] = [];
      return scenario(
        'DELETE /api/users/{id}',
        'DELETE',
        '/api/users/{id}',
        200,
        async () => {
          const victim = await createUser({
            username: uniqueName('bench-doomed'),
            passwordHash,
            role: 'USER',
          });
          doomed.push(victim.id);
          return { token: admin.token };
        },
        { url: () => `/api/users/${doomed.at(-1)}` },
      );
    })(),
    // Token resets are limited per user and window: each request resets a fresh user's token. Measured
    // after GET /api/users, whose page those users would otherwise fill.
    scenario('PATCH /api/user/token', 'PATCH', '/api/user/token', 200, async () => {
      const owner = await createUser({ username: uniqueName('bench-token'), passwordHash, role: 'USER' });
      return { cookie: await freshSessionCookie(owner.id) };
    }),
    scenario('POST /api/upload (4 KiB)', 'POST', '/api/upload', 200, () => uploadOptions(uploader.token)),
    (() => {
      // Each start stays pending: a fresh user whenever the last one has its pending uploads' maximum.
      let starter: Promise<string> | undefined;
      return scenario(
        'POST /api/user/files/uploads',
        'POST',
        '/api/user/files/uploads',
        200,
        async (index) => {
          if (starter === undefined || index % MAX_PENDING_UPLOADS === 0) {
            starter = createUser({ username: uniqueName('bench-starter'), passwordHash, role: 'USER' }).then(
              (owner) => freshSessionCookie(owner.id),
            );
          }
          return {
            cookie: await starter,
            json: { originalName: 'recording.mp4', size: 50 * 1024 ** 2, type: 'video/mp4' },
          };
        },
      );
    })(),
    (() => {
      const pending: string[] = [];
      return scenario(
        'POST /api/user/files/uploads/{id}/complete',
        'POST',
        '/api/user/files/uploads/{id}/complete',
        200,
        async () => {
          pending.push(await presignedUploadAwaitingCompletion(uploader.token));
          return { token: uploader.token };
        },
        { url: () => `/api/user/files/uploads/${pending.at(-1)}/complete`, load: 'heavySetup' },
      );
    })(),
    scenario(
      'GET /api/user/files (page of 15)',
      'GET',
      '/api/user/files',
      200,
      () => ({ token: filesOwner.token }),
      { url: () => '/api/user/files?perpage=15' },
    ),
    scenario(
      'GET /api/user/files/{id}',
      'GET',
      '/api/user/files/{id}',
      200,
      () => ({ token: filesOwner.token }),
      {
        url: () => `/api/user/files/${file.id}`,
      },
    ),
    scenario(
      'PATCH /api/user/files/{id} (favorite)',
      'PATCH',
      '/api/user/files/{id}',
      200,
      (index) => ({ token: filesOwner.token, json: { favorite: index % 2 === 0 } }),
      { url: () => `/api/user/files/${file.id}` },
    ),
    (() => {
      const doomed: string[] = [];
      return scenario(
        'DELETE /api/user/files/{id}',
        'DELETE',
        '/api/user/files/{id}',
        200,
        async () => {
          doomed.push((await uploadFile(uploader.token)).id);
          return { token: uploader.token };
        },
        { url: () => `/api/user/files/${doomed.at(-1)}`, load: 'heavySetup' },
      );
    })(),
    scenario(
      'GET /api/user/files/{id}/raw (owner, 302)',
      'GET',
      '/api/user/files/{id}/raw',
      302,
      () => ({ token: filesOwner.token }),
      { url: () => `/api/user/files/${file.id}/raw` },
    ),
    scenario('GET /raw/{name} (302)', 'GET', '/raw/{name}', 302, () => ({}), {
      url: () => `/raw/${encodeURIComponent(file.name)}`,
    }),
    scenario('GET /view/{name} (image page)', 'GET', '/view/{name}', 200, () => ({}), {
      url: () => `/view/${encodeURIComponent(viewed.name)}`,
    }),
    scenario(
      'POST /view/{name} (password form)',
      'POST',
      '/view/{name}',
      200,
      () => ({
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        raw: new URLSearchParams({ password: PASSWORD }).toString(),
      }),
      { url: () => `/view/${encodeURIComponent(locked.name)}`, load: 'password' },
    ),
    scenario('GET /api/oembed/{name}', 'GET', '/api/oembed/{name}', 200, () => ({}), {
      url: () => `/api/oembed/${encodeURIComponent(viewed.name)}`,
    }),
    scenario('GET /api/nothing (fallback 404)', 'GET', '/api/nothing', 404, () => ({})),
  ];
  // The thumbnail function, as S3 starts it: the event of a 1600×1200 PNG's upload.
  const picture = await uploadPicture(uploader);
  const objectEvents: EventScenario[] = [
    {
      name: 'S3 object created (1600×1200 PNG)',
      handler: 'thumbnails/make',
      event: async () => s3Event(process.env.BUCKET_NAME as string, picture.key),
      succeeded: madeThumbnail,
    },
    {
      name: 'scheduled expiry sweep (nothing due)',
      handler: 'files/expire',
      event: async () => scheduledEvent(),
      succeeded: (result) => (result as { failed?: number }).failed === 0,
    },
  ];
  return { scenarios, objectEvents, fixtures: { userId: user.id } };
}
