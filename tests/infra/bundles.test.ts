import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { hashPassword } from '#shared/auth/password';
import { routes } from '#shared/routes/table';
import { ffmpegBinary } from '#shared/thumbnails/video';
import { createUser } from '#shared/users/creation';
import {
  type BundleReport,
  bundleReports,
  formatBundleReports,
  MAX_BUNDLE_BYTES,
} from '../../infra/bundle-report.ts';
import { functionSpecs } from '../../infra/functions.ts';
import { documentedRows, FUNCTION_COLUMNS, functionRows, SIZE_COLUMNS } from '../../infra/functions-doc.ts';
import { routeEvent } from '../../infra/local/dispatch.ts';
import { s3Event } from '../../infra/local/s3.ts';
import { PROJECT_ROOT } from '../../infra/project-root.ts';
import { FileServiceStack } from '../../infra/stack.ts';
import { invokeBundle, runBundle } from '../support/bundle.ts';
import {
  type CallOptions,
  call,
  cookieValue,
  requestEvent,
  toTestResponse,
  uniqueName,
} from '../support/client.ts';
import { upload } from '../support/files.ts';
import { multipart } from '../support/multipart.ts';
import { PNG_1X1 } from '../support/pixels.ts';
import { signedInUser } from '../support/users.ts';

const STACK = 'FileService';
let outdir: string;
let reports: BundleReport[];

/** One synth with real bundling for the whole file, into a directory of its own. */
beforeAll(() => {
  outdir = mkdtempSync(join(tmpdir(), 'file-service-cdk-'));
  // The metadata `cdk synth` asks for, which SAM reads to find each function's asset directory.
  const app = new App({
    outdir,
    context: { 'aws:cdk:enable-asset-metadata': true, 'aws:cdk:enable-path-metadata': true },
  });
  new FileServiceStack(app, STACK);
  app.synth();
  reports = bundleReports(outdir, STACK);
  console.log(
    `Bundle sizes (JavaScript limit ${MAX_BUNDLE_BYTES / 1024} KiB):\n${formatBundleReports(reports)}`,
  );
}, 180_000);

afterAll(() => {
  rmSync(outdir, { recursive: true, force: true });
});

function bundleOf(handler: string): BundleReport {
  const report = reports.find((candidate) => candidate.handler === handler);
  if (!report) throw new Error(`no bundle for ${handler}`);
  return report;
}

/** The request as a deployed function receives it: API Gateway's routing, then the bundle's handler. */
async function callBundle(method: string, url: string, options: CallOptions = {}) {
  const routed = routeEvent(requestEvent(method, url, options));
  const bundle = bundleOf(routed.handler);
  return toTestResponse(await invokeBundle(bundle.assetDir, bundle.environment, routed.event));
}

/** Set-Cookie with the sealed value removed: the value is fresh randomness on every login. */
/** A Set-Cookie with its sealed value and its Expires date (which depends on the second) masked. */
const cookieAttributes = (setCookie: string | undefined) =>
  setCookie
    ?.replace(/^([^=]+)=[^;]*/, '$1=<sealed>')
    .replace(/Expires=[^;]+/, (match) =>
      Number.isNaN(Date.parse(match.slice('Expires='.length))) ? match : 'Expires=<date>',
    );

describe('assets', () => {
  test('every function has an asset directory with its ESM bundle and external source map', () => {
    expect(reports.map((report) => report.handler).sort()).toEqual(
      functionSpecs()
        .map((spec) => spec.handler)
        .sort(),
    );
    for (const report of reports) {
      expect(existsSync(join(report.assetDir, 'index.mjs'))).toBe(true);
      expect(report.sourceMapBytes).toBeGreaterThan(0);
      // Linked: the logger finds the map of a logged error's frames beside the code.
      const code = readFileSync(join(report.assetDir, 'index.mjs'), 'utf8');
      expect(code.trimEnd().endsWith('//# sourceMappingURL=index.mjs.map')).toBe(true);
      // esbuild's metafile is written only when the benchmark asks for it, never into a deploy.
      expect(existsSync(join(report.assetDir, 'index.meta.json'))).toBe(false);
    }
  });

  test('no JavaScript bundle exceeds the size limit', () => {
    const tooLarge = reports.filter((report) => report.codeBytes > MAX_BUNDLE_BYTES);
    expect(tooLarge.map((report) => `${report.handler}: ${report.codeBytes} bytes`)).toEqual([]);
  });

  test('the AWS SDK is bundled, not left to the runtime', () => {
    const code = readFileSync(join(bundleOf('user/get').assetDir, 'index.mjs'), 'utf8');
    expect(code).not.toMatch(/from\s*["']@aws-sdk\//);
    expect(code).toContain('DynamoDB');
  });

  test('credentials come from the environment only: no SSO, profile, IMDS or STS provider is bundled', () => {
    for (const report of reports) {
      const code = readFileSync(join(report.assetDir, 'index.mjs'), 'utf8');
      expect(code).not.toMatch(/fromSSO|fromInstanceMetadata|fromTokenFile|fromIni/);
    }
    expect(readFileSync(join(bundleOf('user/get').assetDir, 'index.mjs'), 'utf8')).toContain(
      'AWS_SECRET_ACCESS_KEY',
    );
  });

  test.each(functionSpecs().map((spec) => [spec.handler, spec.hashesPasswords]))(
    '%s carries bcrypt only if it hashes passwords (%s)',
    (handler, hashesPasswords) => {
      const report = bundleOf(handler as string);
      expect(report.containsBcrypt).toBe(hashesPasswords);
      const modules = join(report.assetDir, 'node_modules', '@node-rs');
      for (const binary of [
        'bcrypt-linux-arm64-gnu/bcrypt.linux-arm64-gnu.node',
        'bcrypt-linux-x64-gnu/bcrypt.linux-x64-gnu.node',
      ]) {
        expect(existsSync(join(modules, binary))).toBe(hashesPasswords);
      }
    },
  );

  test.each(functionSpecs().map((spec) => [spec.handler, spec.native === 'sharp']))(
    '%s carries sharp only if its line says native: sharp (%s)',
    (handler, carriesSharp) => {
      const report = bundleOf(handler as string);
      expect(report.containsSharp).toBe(carriesSharp);
      const modules = join(report.assetDir, 'node_modules', '@img');
      for (const name of ['sharp-linux-arm64', 'sharp-libvips-linux-arm64']) {
        expect(existsSync(join(modules, name, 'package.json'))).toBe(carriesSharp);
      }
      // External, as bcrypt: imported from the package copied beside the bundle, not bundled.
      expect(existsSync(join(report.assetDir, 'node_modules', 'sharp', 'package.json'))).toBe(carriesSharp);
      const code = readFileSync(join(report.assetDir, 'index.mjs'), 'utf8');
      expect(/(?:from|import\()\s*["']sharp["']/.test(code)).toBe(carriesSharp);
      expect(code.includes('sharp.node')).toBe(false);
    },
  );

  test('sharp is carried by the thumbnails and the direct upload only, the upload with bcrypt beside it', () => {
    const carriers = functionSpecs()
      .filter((spec) => spec.native === 'sharp')
      .map((spec) => spec.handler);
    expect(carriers.sort()).toEqual(['files/upload', 'thumbnails/make']);
    const upload = bundleOf('files/upload');
    expect([upload.containsBcrypt, upload.containsSharp]).toEqual([true, true]);
  });

  test('the arm64 binary is an aarch64 ELF object of the loader version', () => {
    const modules = join(bundleOf('auth/login').assetDir, 'node_modules', '@node-rs');
    const binary = readFileSync(join(modules, 'bcrypt-linux-arm64-gnu', 'bcrypt.linux-arm64-gnu.node'));
    expect(binary.subarray(0, 4).toString('latin1')).toBe('\x7fELF');
    expect(binary.readUInt16LE(18)).toBe(0xb7); // e_machine EM_AARCH64
    const version = (name: string) =>
      JSON.parse(readFileSync(join(modules, name, 'package.json'), 'utf8')).version;
    expect(version('bcrypt-linux-arm64-gnu')).toBe(version('bcrypt'));
    expect(version('bcrypt-linux-x64-gnu')).toBe(version('bcrypt'));
  });
});

test("sharp's arm64 module is an aarch64 ELF object of the bundled sharp's version", () => {
  const modules = join(bundleOf('thumbnails/make').assetDir, 'node_modules', '@img', 'sharp-linux-arm64');
  const binary = readdirSync(join(modules, 'lib')).find((file) => file.endsWith('.node')) as string;
  const bytes = readFileSync(join(modules, 'lib', binary));
  expect(bytes.subarray(0, 4).toString('latin1')).toBe('\x7fELF');
  expect(bytes.readUInt16LE(18)).toBe(0xb7); // e_machine EM_AARCH64
  const version = JSON.parse(readFileSync(join(modules, 'package.json'), 'utf8')).version;
  expect(version).toBe(JSON.parse(readFileSync('node_modules/sharp/package.json', 'utf8')).version);
});

test('the thumbnail bundle makes a thumbnail with the sharp it carries, given only its template environment', async () => {
  const owner = await signedInUser();
  const [file] = await upload(owner.token, [{ fileName: 'pixel.png', type: 'image/png', content: PNG_1X1 }]);
  const bundle = bundleOf('thumbnails/make');
  const key = `files/${owner.id}/${file?.id}`;
  const result = (await invokeBundle(
    bundle.assetDir,
    bundle.environment,
    s3Event(process.env.BUCKET_NAME as string, key) as never,
  )) as unknown as { outcomes: unknown[] };
  expect(result.outcomes).toEqual([
    { key, event: 'ObjectCreated:Put', made: { width: 1, height: 1, size: expect.any(Number) } },
  ]);
  const resource = await call('GET', `/api/user/files/${file?.id}`, { token: owner.token });
  expect(resource.body.thumbnail).toEqual({ path: `/api/user/files/${file?.id}/thumbnail` });
});

test("ffmpeg's arm64 binary is in the thumbnail function's asset only, executable, within Lambda's 250 MB", () => {
  const carriers = reports.filter((report) => report.containsFfmpeg).map((report) => report.handler);
  expect(carriers).toEqual(['thumbnails/make']);
  const bundle = bundleOf('thumbnails/make');
  const modules = join(bundle.assetDir, 'node_modules', '@ffmpeg-installer');
  expect(readdirSync(modules)).toEqual(['linux-arm64']);
  const binary = join(modules, 'linux-arm64', 'ffmpeg');
  const bytes = readFileSync(binary);
  expect(bytes.subarray(0, 4).toString('latin1')).toBe('\x7fELF');
  expect(bytes.readUInt16LE(18)).toBe(0xb7); // e_machine EM_AARCH64
  expect(statSync(binary).mode & 0o111).toBe(0o111);
  console.log(`thumbnails/make asset: ${(bundle.totalBytes / 1e6).toFixed(1)} MB unzipped`);
  expect(bundle.totalBytes).toBeLessThan(250 * 1024 * 1024);
});

test('the thumbnail bundle, given only its template environment, takes a video to ffmpeg, made where its binary runs and a failed outcome elsewhere', async () => {
  const owner = await signedInUser();
  const video = Buffer.from(
    execFileSync(ffmpegBinary(), [
      ...['-hide_banner', '-loglevel', 'error', '-f', 'lavfi'],
      ...['-i', 'testsrc=duration=1:size=160x120:rate=5', '-c:v', 'mpeg4', '-f', 'mp4', '-movflags'],
      ...['frag_keyframe+empty_moov', 'pipe:1'],
    ]),
  );
  const [file] = await upload(owner.token, [{ fileName: 'clip.mp4', type: 'video/mp4', content: video }]);
  const bundle = bundleOf('thumbnails/make');
  const key = `files/${owner.id}/${file?.id}`;
  const result = (await invokeBundle(
    bundle.assetDir,
    bundle.environment,
    s3Event(process.env.BUCKET_NAME as string, key) as never,
  )) as unknown as { outcomes: Record<string, unknown>[] };
  // The asset carries the arm64 binary alone: on this machine's architecture it has none to run.
  expect(result.outcomes).toEqual([
    process.arch === 'arm64'
      ? { key, event: 'ObjectCreated:Put', made: { width: 160, height: 120, size: expect.any(Number) } }
      : {
          key,
          event: 'ObjectCreated:Put',
          failed: expect.stringContaining(`@ffmpeg-installer/linux-${process.arch}`),
        },
  ]);
});

test('the upload bundle re-encodes an image with the sharp it carries, beside bcrypt, given only its template environment', async () => {
  const { token } = await signedInUser();
  const { body, contentType } = multipart([{ fileName: 'pixel.png', type: 'image/png', content: PNG_1X1 }]);
  const uploaded = await callBundle('POST', '/api/upload', {
    token,
    raw: body,
    headers: {
      'content-type': contentType,
      'x-zipline-image-compression-percent': '50',
      'x-zipline-image-compression-type': 'webp',
      'x-zipline-password': 'hashed by the bcrypt it carries',
    },
  });
  expect(uploaded.status).toBe(200);
  expect(uploaded.body.files).toEqual([
    expect.objectContaining({ type: 'image/webp', name: expect.stringMatching(/\.webp$/), compressed: true }),
  ]);
});

describe('bundles answer like the local runner', () => {
  const password = 'correct horse battery';
  let username: string;

  beforeAll(async () => {
    username = uniqueName('bundle');
    await createUser({ username, passwordHash: await hashPassword(password), role: 'USER' });
  });

  test('login (bcrypt loaded from the asset, session written to DynamoDB Local)', async () => {
    const options = { json: { username, password } };
    const local = await call('POST', '/api/auth/login', options);
    const bundled = await callBundle('POST', '/api/auth/login', options);
    expect(bundled.status).toBe(200);
    // The same user, now with one session more: the bundle's login.
    const { sessions: localSessions, ...localUser } = local.body.user;
    const { sessions: bundledSessions, ...bundledUser } = bundled.body.user;
    expect(bundledUser).toEqual(localUser);
    expect(bundledSessions).toEqual(expect.arrayContaining(localSessions));
    expect(bundledSessions).toHaveLength(localSessions.length + 1);
    expect(bundled.headers).toEqual(local.headers);
    expect(bundled.cookies.map(cookieAttributes)).toEqual(local.cookies.map(cookieAttributes));
  });

  test('a wrong password is the same 401 from both', async () => {
    const options = { json: { username, password: 'not the password' } };
    const [local, bundled] = await Promise.all([
      call('POST', '/api/auth/login', options),
      callBundle('POST', '/api/auth/login', options),
    ]);
    expect(bundled.status).toBe(401);
    expect(bundled).toEqual(local);
  });

  /** What a bundle writes to stdout for one request, as CloudWatch Logs receives it. */
  async function loggedBy(method: string, url: string, options: CallOptions) {
    const routed = routeEvent(requestEvent(method, url, options));
    const bundle = bundleOf(routed.handler);
    const run = await runBundle(bundle.assetDir, bundle.environment, routed.event);
    const lines = run.stdoutLines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const metrics = lines.filter((line) => '_aws' in line);
    return { run, lines, request: lines.filter((line) => line.message === 'request'), metrics };
  }

  test('a request logs one JSON line and its embedded metrics, with no password, cookie or hash', async () => {
    const failed = await loggedBy('POST', '/api/auth/login', {
      json: { username, password: 'not the password' },
    });
    expect(failed.request).toEqual([
      expect.objectContaining({
        level: 'INFO',
        service: 'file-service',
        requestId: 'bundle-run',
        route: 'POST /api/auth/login',
        status: 401,
        latencyMs: expect.any(Number),
        // The client's address, which the access log does not have behind CloudFront.
        clientIp: '203.0.113.7',
        coldStart: true,
      }),
    ]);
    expect(failed.request[0]?.userId).toBeUndefined();
    expect(failed.metrics).toEqual([
      expect.objectContaining({
        _aws: expect.objectContaining({
          CloudWatchMetrics: [
            expect.objectContaining({ Namespace: STACK, Metrics: [{ Name: 'LoginFailed', Unit: 'Count' }] }),
          ],
        }),
        LoginFailed: 1,
      }),
    ]);
    expect(failed.run.stdoutLines.join('\n')).not.toContain('not the password');

    const signedIn = await loggedBy('POST', '/api/auth/login', { json: { username, password } });
    const user = (JSON.parse(signedIn.run.result.body as string) as { user: { id: string } }).user;
    expect(signedIn.request).toEqual([expect.objectContaining({ status: 200, userId: user.id })]);
    expect(signedIn.metrics).toEqual([expect.objectContaining({ LoginSucceeded: 1 })]);
    const stdout = signedIn.run.stdoutLines.join('\n');
    expect(stdout).not.toContain(password);
    const sessionCookie = cookieValue(signedIn.run.result.cookies?.[0]);
    expect(stdout).not.toContain(sessionCookie.slice(sessionCookie.indexOf('=') + 1));
    expect(stdout).not.toMatch(/\$2[aby]\$/);
  });

  test('GET /api/user with the session the bundle issued', async () => {
    const login = await callBundle('POST', '/api/auth/login', { json: { username, password } });
    const cookie = cookieValue(login.cookies[0]);
    const [local, bundled] = await Promise.all([
      call('GET', '/api/user', { cookie }),
      callBundle('GET', '/api/user', { cookie }),
    ]);
    expect(bundled.status).toBe(200);
    expect(bundled.body.user.username).toBe(username);
    expect(bundled).toEqual(local);
  });

  test('GET /api/user without a session is the same 401', async () => {
    const [local, bundled] = await Promise.all([call('GET', '/api/user'), callBundle('GET', '/api/user')]);
    expect(bundled.status).toBe(401);
    expect(bundled).toEqual(local);
  });

  test('an unknown path reaches the fallback bundle: the same 404', async () => {
    const [local, bundled] = await Promise.all([
      call('GET', '/api/nothing'),
      callBundle('GET', '/api/nothing'),
    ]);
    expect(bundled.status).toBe(404);
    expect(bundled).toEqual(local);
  });
});

describe('every function runs with exactly the environment its template gives it', () => {
  // Path parameters that match no stored item: the request is refused, never answered with a 500.
  const samplePath = (path: string) => path.replace(/\{\w+\}/g, '01JZZZZZZZZZZZZZZZZZZZZZZZ');

  test.each(routes.map((route) => [`${route.method} ${route.path}`, route]))(
    '%s without credentials answers as the local runner does',
    async (_, route) => {
      const url = samplePath(route.path);
      const [local, bundled] = await Promise.all([call(route.method, url), callBundle(route.method, url)]);
      expect(bundled.status).toBeLessThan(500);
      expect({ status: bundled.status, body: bundled.body }).toEqual({
        status: local.status,
        body: local.body,
      });
    },
  );

  test('a file through the bundles: upload, read its metadata, download, delete', async () => {
    const { token } = await signedInUser();
    const { body, contentType } = multipart([
      { fileName: 'note.txt', type: 'text/plain', content: 'bundled' },
    ]);
    const uploaded = await callBundle('POST', '/api/upload', {
      token,
      raw: body,
      headers: { 'content-type': contentType },
    });
    expect(uploaded.status).toBe(200);
    const [file] = uploaded.body.files as { id: string; url: string }[];
    if (!file) throw new Error('no file uploaded');
    // The metadata route's function has no bucket at all: it must not load the S3 client.
    expect(bundleOf('files/get').environment.BUCKET_NAME).toBeUndefined();
    const [local, bundled] = await Promise.all([
      call('GET', `/api/user/files/${file.id}`, { token }),
      callBundle('GET', `/api/user/files/${file.id}`, { token }),
    ]);
    expect(bundled.status).toBe(200);
    expect(bundled.body).toEqual(local.body);
    const raw = await callBundle('GET', new URL(file.url).pathname);
    expect([raw.status, raw.text]).toEqual([200, 'bundled']);
    expect((await callBundle('DELETE', `/api/user/files/${file.id}`, { token })).status).toBe(200);
    expect((await call('GET', `/api/user/files/${file.id}`, { token })).status).toBe(404);
  });
});

describe('docs/deploy.md', () => {
  /** `123 KiB` → 123. */
  const kibOf = (cell: string) => Number(cell.replace(/ KiB$/, ''));

  test('its functions table lists every function as the route table and the assets have it', () => {
    const documented = documentedRows(readFileSync(join(PROJECT_ROOT, 'docs', 'deploy.md'), 'utf8'));
    const generated = functionRows(reports);
    const withoutSizes = (rows: string[][]) =>
      rows.map((row) => row.filter((_, column) => !SIZE_COLUMNS.has(FUNCTION_COLUMNS[column] as string)));
    expect(withoutSizes(documented)).toEqual(withoutSizes(generated));
    // Sizes move with every change; the table must stay within 10% (2 KiB for the tiny fallback).
    const stale = generated.flatMap((row, index) =>
      FUNCTION_COLUMNS.flatMap((column, columnIndex) => {
        if (!SIZE_COLUMNS.has(column)) return [];
        const actual = kibOf(row[columnIndex] as string);
        const written = kibOf(documented[index]?.[columnIndex] ?? '');
        return Math.abs(actual - written) <= Math.max(actual * 0.1, 2)
          ? []
          : [`${row[0]} ${column}: documented ${written} KiB, now ${actual} KiB`];
      }),
    );
    expect(stale).toEqual([]);
  });
});
