import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { createLocalServer } from '../../infra/local/server.ts';
import { launchChromium } from '../support/browser.ts';
import { upload } from '../support/files.ts';
import { signedInUser } from '../support/users.ts';

/**
 * Stored XSS on the file origin: uploaded bytes must never run as a page, whatever type the upload
 * claimed. Chromium follows the public link through the real local runner (its HTTP server) to the
 * presigned URL on the S3 server, and every payload tries to mark the window and call home. A control
 * serves the same payloads as their own types from a plain server, where they do run: the test can
 * see script run when it does.
 */
let browser: Browser;
let runner: Server;
let runnerUrl: string;
let beacon: Server;
let beaconUrl: string;
const beaconHits: string[] = [];

const listen = (server: Server) =>
  new Promise<string>((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  );

beforeAll(async () => {
  // The beacon counts calls home and also serves the payloads as themselves (the control).
  beacon = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://beacon');
    if (url.pathname === '/hit') {
      beaconHits.push(url.searchParams.get('from') ?? '');
      response.writeHead(204, { 'access-control-allow-origin': '*' }).end();
      return;
    }
    const payload = PAYLOADS.find((candidate) => `/${candidate.name}` === url.pathname);
    if (!payload) return response.writeHead(404).end();
    response.writeHead(200, { 'content-type': payload.type }).end(payload.body(`control-${payload.name}`));
  });
  beaconUrl = await listen(beacon);
  runner = createLocalServer();
  runnerUrl = await listen(runner);
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  runner?.close();
  beacon?.close();
});

/** What a payload does when it runs: synchronously mark the window, then call home. */
const run = (from: string) =>
  `window.name='ran:${from}';fetch('${beaconUrl}/hit?from=${encodeURIComponent(from)}')`;

interface Payload {
  name: string;
  /** The type the payload really is (served so by the control). */
  type: string;
  body: (from: string) => string;
}

const PAYLOADS: Payload[] = [
  {
    name: 'page.html',
    type: 'text/html',
    body: (from) => `<!doctype html><html><body><script>${run(from)}</script></body></html>`,
  },
  {
    name: 'page.xhtml',
    type: 'application/xhtml+xml',
    body: (from) =>
      `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><body><script>${run(from)}</script></body></html>`,
  },
  {
    name: 'image.svg',
    type: 'image/svg+xml',
    body: (from) => `<svg xmlns="http://www.w3.org/2000/svg"><script>${run(from)}</script></svg>`,
  },
  {
    name: 'data.xml',
    type: 'application/xml',
    // XSLT turning the document into an XHTML page with a script.
    body: (from) =>
      `<?xml version="1.0"?><?xml-stylesheet type="text/xsl" href="${beaconUrl}/style.xsl"?><x xmlns="http://www.w3.org/1999/xhtml"><script>${run(from)}</script></x>`,
  },
];

/** Types an upload may claim: the payload's own, the ones browsers sniff, and harmless-looking ones. */
const CLAIMED_TYPES = [
  'text/html',
  'application/xhtml+xml',
  'image/svg+xml',
  'text/xml',
  'application/xml',
  'text/xsl',
  'unknown/unknown',
  'application/unknown',
  'application/octet-stream',
  'text/plain',
  'image/png',
  'video/mp4',
];

/** Opens a URL in a fresh page and reports whether the payload ran there. */
async function ranAt(url: string): Promise<boolean> {
  const page = await browser.newPage();
  try {
    // An attachment is a download: navigation aborts and the page stays blank.
    await page.goto(url, { waitUntil: 'load' }).catch(() => undefined);
    return String(await page.evaluate('window.name')).startsWith('ran:');
  } finally {
    await page.close();
  }
}

test('the control: served as what they are, the payloads run', async () => {
  for (const payload of PAYLOADS.filter((candidate) => candidate.name !== 'data.xml')) {
    expect(await ranAt(`${beaconUrl}/${payload.name}`)).toBe(true);
  }
});

test.each(PAYLOADS.map((payload) => [payload.name, payload] as const))(
  '%s never runs from its public link, whatever type the upload claimed',
  async (_, payload) => {
    const owner = await signedInUser();
    for (const claimed of CLAIMED_TYPES) {
      const from = `${payload.name}:${claimed}`;
      const [file] = await upload(owner.token, [
        { fileName: payload.name, type: claimed, content: payload.body(from) },
      ]);
      const link = `${runnerUrl}${new URL(file?.url as string).pathname}`;
      expect(await ranAt(link)).toBe(false);
    }
    expect(beaconHits.filter((hit) => hit.startsWith(`${payload.name}:`))).toEqual([]);
  },
  120_000,
);

test.each([
  ['text/html', 'application/octet-stream', 'attachment'],
  ['image/svg+xml', 'application/octet-stream', 'attachment'],
  ['unknown/unknown', 'application/octet-stream', 'attachment'],
  ['application/pdf', 'application/octet-stream', 'attachment'],
  ['image/png', 'image/png', 'inline'],
  ['video/mp4', 'video/mp4', 'inline'],
  ['text/plain', 'text/plain; charset=utf-8', 'inline'],
  ['TEXT/PLAIN; charset=utf-7', 'text/plain; charset=utf-8', 'inline'],
])('claimed %s: a small file is answered as %s, %s', async (claimed, type, how) => {
  const owner = await signedInUser();
  const [file] = await upload(owner.token, [{ fileName: 'f.bin', type: claimed, content: 'bytes' }]);
  const served = await fetch(`${runnerUrl}${new URL(file?.url as string).pathname}`, { redirect: 'manual' });
  expect(served.status).toBe(200);
  expect(served.headers.get('content-type')).toBe(type);
  expect(served.headers.get('content-disposition')).toMatch(new RegExp(`^${how}; filename\\*=`));
  expect(served.headers.get('x-content-type-options')).toBe('nosniff');
});

test('a large file claimed text/html: the signed URL asks S3 for application/octet-stream, attachment (real S3 honours both overrides)', async () => {
  const owner = await signedInUser();
  const bytes = Buffer.alloc(4 * 1024 * 1024 + 1, '<script>alert(1)</script>');
  const started = await fetch(`${runnerUrl}/api/user/files/uploads`, {
    method: 'POST',
    headers: { authorization: owner.token, 'content-type': 'application/json' },
    body: JSON.stringify({ originalName: 'big.html', size: bytes.length, type: 'text/html' }),
  });
  const { id, url, headers } = (await started.json()) as {
    id: string;
    url: string;
    headers: Record<string, string>;
  };
  expect((await fetch(url, { method: 'PUT', headers, body: bytes })).status).toBe(200);
  const completed = await fetch(`${runnerUrl}/api/user/files/uploads/${id}/complete`, {
    method: 'POST',
    headers: { authorization: owner.token },
  });
  const [file] = ((await completed.json()) as { files: { url: string }[] }).files;
  const redirect = await fetch(`${runnerUrl}${new URL(file?.url as string).pathname}`, {
    redirect: 'manual',
  });
  expect(redirect.status).toBe(302);
  const location = new URL(redirect.headers.get('location') as string);
  expect(location.searchParams.get('response-content-type')).toBe('application/octet-stream');
  expect(location.searchParams.get('response-content-disposition')).toMatch(/^attachment; filename\*=/);
  // Part of the signed query: changing either one breaks the signature.
  expect(location.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
  const served = await fetch(location);
  expect(served.headers.get('content-type')).toBe('application/octet-stream');
  expect(served.headers.get('content-disposition')).toMatch(/^attachment;/);
}, 60_000);

test('non-ASCII text reads right in Chromium: on /raw, and on the view page and its link to the whole file', async () => {
  const owner = await signedInUser();
  const greeting = 'Grüße aus Köln — 日本語 ✓';
  await fetch(`${runnerUrl}/api/user`, {
    method: 'PATCH',
    headers: { authorization: owner.token, 'content-type': 'application/json' },
    body: JSON.stringify({ view: { enabled: true } }),
  });
  // Longer than the page's 64 KiB excerpt, so the page links to the whole file.
  const content = `${greeting}\n`.repeat(3000);
  const [file] = await upload(owner.token, [{ fileName: 'gruss.txt', type: 'text/plain', content }]);
  const name = new URL(file?.url as string).pathname.split('/').pop() as string;
  const page = await browser.newPage();
  try {
    await page.goto(`${runnerUrl}/raw/${name}`);
    expect(page.url()).toBe(`${runnerUrl}/raw/${name}`);
    expect((await page.textContent('body'))?.trim()).toBe(content.trim());
    await page.goto(`${runnerUrl}/view/${name}`);
    expect(await page.textContent('pre')).toContain(greeting);
    // The page's link to the whole file: the presigned URL, its type signed with the charset.
    const whole = await page.getByRole('link', { name: 'Open the whole file' }).getAttribute('href');
    await page.goto(whole as string);
    expect((await page.textContent('body'))?.trim()).toBe(content.trim());
  } finally {
    await page.close();
  }
}, 60_000);
