import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../infra/local/dynamodb.ts';
import { PNG_1X1 } from '../support/pixels.ts';
import {
  npmStartArguments,
  type Runner,
  startRunner as startRunnerIn,
  stopRunner,
} from '../support/runner.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'file-service-runner-'));
const started: Runner[] = [];
/** Runners expected to fail on their own; killed only if a test gave up on one. */
const failing: ChildProcess[] = [];
afterAll(() => {
  for (const runner of started) if (runner.child.exitCode === null) runner.child.kill('SIGKILL');
  for (const child of failing) if (child.exitCode === null) child.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
});

async function startRunner(extraEnv: Record<string, string> = {}): Promise<Runner> {
  const runner = await startRunnerIn(dataDir, extraEnv);
  started.push(runner);
  return runner;
}

function acceptsConnections(endpoint: string): Promise<boolean> {
  const { hostname, port } = new URL(endpoint);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

test('npm start serves the API, logs one JSON line per request, and keeps everything across a restart', async () => {
  const first = await startRunner();
  const printed = /created SUPERADMIN "administrator" with password (\S+)/.exec(first.output());
  expect(printed).not.toBeNull();
  const password = printed?.[1] as string;

  const login = await fetch(`${first.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'administrator', password }),
  });
  expect(login.status).toBe(200);
  const setCookie = login.headers.getSetCookie();
  expect(setCookie).toHaveLength(1);
  // Plain HTTP locally: the cookie must not be Secure or browsers would drop it.
  expect(setCookie[0]).not.toContain('Secure');
  const cookie = (setCookie[0] as string).split(';')[0] as string;
  const token = (
    (await (await fetch(`${first.url}/api/user/token`, { headers: { cookie } })).json()) as { token: string }
  ).token;
  const patched = await fetch(`${first.url}/api/user`, {
    method: 'PATCH',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ view: { align: 'center' } }),
  });
  expect(patched.status).toBe(200);
  expect((await fetch(`${first.url}/api/nope`)).status).toBe(404);

  // An image upload: the runner feeds S3's object-created event to the thumbnail function, as S3 names it.
  const form = new FormData();
  form.append('file', new Blob([PNG_1X1], { type: 'image/png' }), 'pixel.png');
  const uploaded = await fetch(`${first.url}/api/upload`, {
    method: 'POST',
    headers: { authorization: token },
    body: form,
  });
  expect(uploaded.status).toBe(200);
  const { id } = ((await uploaded.json()) as { files: { id: string }[] }).files[0] as { id: string };
  await first.waitFor(
    new RegExp(
      `^thumbnails/make files/\\S+/${id}: \\{"outcomes":\\[\\{"key":"[^"]+","event":"ObjectCreated:Put","made"`,
      'm',
    ),
  );
  const file = (await (
    await fetch(`${first.url}/api/user/files/${id}`, { headers: { authorization: token } })
  ).json()) as { thumbnail: { path: string } };
  expect(file.thumbnail).toEqual({ path: `/api/user/files/${id}/thumbnail` });

  // Expiry: the runner sweeps every few seconds what the stack's schedule sweeps each minute (a past
  // deletesAt is refused, so the file expires a few seconds from now).
  const expired = await fetch(`${first.url}/api/user/files/${id}`, {
    method: 'PATCH',
    headers: { authorization: token, 'content-type': 'application/json' },
    body: JSON.stringify({ deletesAt: new Date(Date.now() + 4000).toISOString() }),
  });
  expect(expired.status).toBe(200);
  await first.waitFor(/"message":"expiry sweep"[^\n]*"expired":1/);
  const listed = (await (
    await fetch(`${first.url}/api/user/files`, { headers: { authorization: token } })
  ).json()) as { total: number };
  expect(listed.total).toBe(0);

  await first.waitFor(/"route":"\$default","status":404/);
  const log = first.output();
  // The same JSON lines the functions write in AWS: one per request, with the caller once known.
  const requests = log
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.message === 'request');
  const lineOf = (route: string) => requests.find((line) => line.route === route);
  expect(lineOf('POST /api/auth/login')).toMatchObject({ level: 'INFO', status: 200, coldStart: true });
  const userId = lineOf('POST /api/auth/login')?.userId;
  expect(userId).toEqual(expect.any(String));
  expect(lineOf('GET /api/user/token')).toMatchObject({ status: 200, userId });
  expect(lineOf('PATCH /api/user')).toMatchObject({ status: 200, userId, coldStart: true });
  expect(lineOf('$default')).toMatchObject({ status: 404 });
  for (const line of requests) {
    expect(line.requestId).toEqual(expect.any(String));
    expect(line.latencyMs).toEqual(expect.any(Number));
  }
  // Embedded metrics beside them: the login counted as a success.
  expect(log).toMatch(/"LoginSucceeded":1/);
  const requestLines = requests.map((line) => JSON.stringify(line)).join('\n');
  expect(requestLines).not.toContain(password);
  expect(log).not.toContain(token);
  expect(log).not.toContain(cookie.slice('service_session='.length));

  expect(await stopRunner(first, 'SIGTERM')).toBe(0);
  expect(await acceptsConnections(first.dynamoEndpoint)).toBe(false);

  const second = await startRunner({ ADMIN_USERNAME: 'someone-else', ADMIN_PASSWORD: 'another password' });
  expect(second.output()).not.toContain('created SUPERADMIN');
  const me = await fetch(`${second.url}/api/user`, { headers: { cookie } });
  expect(me.status).toBe(200);
  const body = (await me.json()) as { user: { username: string; view: unknown }; token: string };
  expect(body.user.username).toBe('administrator');
  expect(body.user.view).toEqual({ align: 'center' });
  expect(body.token).toBe(token);
  expect((await fetch(`${second.url}/api/user`, { headers: { authorization: token } })).status).toBe(200);
  // HEAD over real HTTP: the GET's status and headers, the body's length, no body.
  const get = await fetch(`${second.url}/api/user`, { headers: { authorization: token } });
  const getBody = await get.arrayBuffer();
  const head = await fetch(`${second.url}/api/user`, { method: 'HEAD', headers: { authorization: token } });
  expect(head.status).toBe(200);
  expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
  expect(head.headers.get('content-length')).toBe(String(getBody.byteLength));
  expect((await head.arrayBuffer()).byteLength).toBe(0);
  // A browser uploader's preflight with Zipline's upload headers passes.
  const preflight = await fetch(`${second.url}/api/upload`, {
    method: 'OPTIONS',
    headers: {
      origin: 'https://uploader.example',
      'access-control-request-method': 'POST',
      'access-control-request-headers':
        'authorization,x-zipline-password,x-zipline-p-identifier,content-range',
    },
  });
  expect(preflight.status).toBe(204);
  expect(preflight.headers.get('access-control-allow-headers')).toContain('x-zipline-p-identifier');
  expect(preflight.headers.get('access-control-allow-headers')).toContain('content-range');
  expect(await stopRunner(second, 'SIGINT')).toBe(0);
  expect(await acceptsConnections(second.dynamoEndpoint)).toBe(false);
}, 240_000);

/** Runs `npm start` to its end (it is expected to fail) and returns its exit code and output. */
function runToExit(extraEnv: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, npmStartArguments(), {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      DATA_DIR: mkdtempSync(join(tmpdir(), 'file-service-failing-')),
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  failing.push(child);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  return new Promise((resolve) => child.once('close', (code: number | null) => resolve({ code, output })));
}

/** Holds a port, as another program would. */
async function occupiedPort(): Promise<{ port: number; release: () => void }> {
  const { createServer } = await import('node:net');
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address !== 'object') throw new Error('no port');
  return { port: address.port, release: () => server.close() };
}

describe('a start that fails after DynamoDB Local is up stops what it started', () => {
  test.each([
    [
      'a bad configuration value (BCRYPT_COST=99)',
      async () => ({ env: { BCRYPT_COST: '99' }, release: () => {} }),
    ],
    [
      'the HTTP port taken',
      async () => {
        const held = await occupiedPort();
        return { env: { PORT: String(held.port) }, release: held.release };
      },
    ],
    [
      'the S3 port taken',
      async () => {
        const held = await occupiedPort();
        return { env: { S3_PORT: String(held.port) }, release: held.release };
      },
    ],
  ])(
    '%s: exit code 1, a message, and neither DynamoDB Local nor the S3 server left running',
    async (_, setUp) => {
      const [dynamoPort, s3Port, httpPort] = [await freePort(), await freePort(), await freePort()];
      const { env, release }: { env: Record<string, string>; release: () => void } = await setUp();
      try {
        const { code, output } = await runToExit({
          DYNAMODB_PORT: String(dynamoPort),
          S3_PORT: String(s3Port),
          PORT: String(httpPort),
          ...env,
        });
        expect(code).toBe(1);
        expect(output).toMatch(/could not start/);
        expect(await acceptsConnections(`http://127.0.0.1:${dynamoPort}`)).toBe(false);
        if (env.S3_PORT === undefined) {
          expect(await acceptsConnections(`http://127.0.0.1:${s3Port}`)).toBe(false);
        }
      } finally {
        release();
      }
    },
    240_000,
  );
});
