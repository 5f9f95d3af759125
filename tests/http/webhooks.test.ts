import { createHmac, randomBytes } from 'node:crypto';
import { jest } from '@jest/globals';
import { logger } from '#shared/log/logger';
import { MASKED_SECRET } from '#shared/settings/webhooks';
import { startLocalWebhooks } from '../../infra/local/webhooks.ts';
import { sendChunk } from '../support/chunks.ts';
import { call } from '../support/client.ts';
import { upload } from '../support/files.ts';
import { multipart } from '../support/multipart.ts';
import { signedInUser } from '../support/users.ts';
import { startReceiver } from '../support/webhook-receiver.ts';

/**
 * Webhooks (issue 38, docs/webhooks.md) through the HTTP path: the routes announce, the deliverer
 * runs as the local runner runs it (infra/local/webhooks.ts), a real HTTP server receives. The
 * receiver listens on 127.0.0.1, so this file sets the test-only allowance explicitly;
 * tests/unit/webhook-addresses.test.ts refuses loopback without it.
 */
process.env.WEBHOOKS_ALLOW_LOOPBACK = 'true';

/** The smallest chunk but the last (64 KiB). */
const CHUNK = 64 * 1024;
const SECRET = 'a-receiver-shared-secret-0123456789';
const webhooks = startLocalWebhooks(() => undefined);
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let root: Awaited<ReturnType<typeof signedInUser>>;
let owner: Awaited<ReturnType<typeof signedInUser>>;

const patch = (json: Record<string, unknown>) =>
  call('PATCH', '/api/server/settings', { cookie: root.cookie, json });

beforeAll(async () => {
  receiver = await startReceiver();
  root = await signedInUser('SUPERADMIN');
  owner = await signedInUser();
  const set = await patch({
    httpWebhookOnUpload: receiver.url('/http/upload'),
    httpWebhookOnShorten: receiver.url('/http/shorten'),
    httpWebhookSecret: SECRET,
    discordWebhookUrl: receiver.url('/api/webhooks/123/discord-token-secret'),
    discordOnUploadContent:
      '{user.username} uploaded {file.originalName} ({file.size::bytes}) {link.returned}',
    discordOnUploadEmbed: { title: '{file.name}', color: '#1bebeb', imageOrVideo: true, timestamp: true },
  });
  expect(set.status).toBe(200);
});

afterAll(() => receiver.stop());

/** What the receiver verifies: the HMAC of `<timestamp>.<body>` under the shared secret. */
function verified(entry: { headers: Record<string, unknown>; body: string }) {
  const timestamp = String(entry.headers['x-webhook-timestamp']);
  const expected = `sha256=${createHmac('sha256', SECRET).update(`${timestamp}.${entry.body}`).digest('hex')}`;
  expect(entry.headers['x-webhook-signature']).toBe(expected);
  expect(Math.abs(Date.now() / 1000 - Number(timestamp))).toBeLessThan(300);
  return JSON.parse(entry.body);
}

const newOn = (path: string, before: number) => receiver.on(path).slice(before);

test('an upload is posted, signed, to the HTTP webhook and as Zipline’s message to Discord', async () => {
  const [httpBefore, discordBefore] = [
    receiver.on('/http/upload').length,
    receiver.on('/api/webhooks/123/discord-token-secret').length,
  ];
  const [file] = await upload(owner.token, [
    { fileName: 'cat.png', type: 'image/png', content: Buffer.from('png') },
  ]);
  await webhooks.settled();
  const [http] = newOn('/http/upload', httpBefore);
  expect(http).toBeDefined();
  expect(http?.headers).toMatchObject({ 'x-zipline-webhook': 'true', 'x-zipline-webhook-type': 'upload' });
  const body = verified(http as never);
  expect(body).toEqual({
    id: expect.any(String),
    type: 'upload',
    occurredAt: expect.any(String),
    data: {
      user: { id: owner.id, username: owner.username, role: 'USER' },
      file: expect.objectContaining({
        id: file?.id,
        name: file?.name,
        originalName: 'cat.png',
        type: 'image/png',
        size: 3,
        password: false,
      }),
      link: { returned: file?.url, raw: expect.stringMatching(/\/raw\//) },
    },
  });
  expect(http?.body).not.toMatch(/passwordHash|token/i);
  const [discord] = newOn('/api/webhooks/123/discord-token-secret', discordBefore);
  expect(JSON.parse(discord?.body ?? '{}')).toEqual({
    username: 'File service',
    avatar_url: null,
    content: `${owner.username} uploaded cat.png (3 B) ${file?.url}`,
    embeds: [
      {
        title: file?.name,
        description: null,
        url: null,
        color: 0x1bebeb,
        timestamp: expect.any(String),
        footer: null,
        thumbnail: null,
        image: { url: body.data.link.raw },
        video: null,
      },
    ],
    allowed_mentions: { parse: [] },
  });
});

test('a short link made is posted to the shorten webhook, Discord with its default text', async () => {
  const before = receiver.on('/http/shorten').length;
  const made = await call('POST', '/api/user/urls', {
    token: owner.token,
    json: { destination: 'https://example.com/page' },
  });
  expect(made.status).toBe(200);
  await webhooks.settled();
  const [http] = newOn('/http/shorten', before);
  const body = verified(http as never);
  expect(body).toMatchObject({
    type: 'shorten',
    data: {
      url: { id: made.body.id, destination: 'https://example.com/page' },
      link: { returned: made.body.url },
    },
  });
  const discord = receiver.on('/api/webhooks/123/discord-token-secret').at(-1);
  expect(JSON.parse(discord?.body ?? '{}').content).toBe(
    `${owner.username} shortened https://example.com/page: ${made.body.url}`,
  );
});

test('a chunked upload and a presigned one are announced once, when complete', async () => {
  const before = receiver.on('/http/upload').length;
  const file = randomBytes(CHUNK + 10);
  const identifier = randomBytes(4).toString('hex');
  const opened = await sendChunk(owner, {
    identifier,
    start: 0,
    bytes: file.subarray(0, CHUNK),
    total: file.length,
  });
  expect(opened.status).toBe(200);
  await webhooks.settled();
  expect(newOn('/http/upload', before)).toHaveLength(0);
  const last = await sendChunk(owner, {
    identifier,
    start: CHUNK,
    bytes: file.subarray(CHUNK),
    total: file.length,
  });
  expect(last.status).toBe(200);
  await webhooks.settled();
  expect(newOn('/http/upload', before).map((entry) => JSON.parse(entry.body).data.file.id)).toEqual([
    last.body.files[0].id,
  ]);

  const started = await call('POST', '/api/user/files/uploads', {
    token: owner.token,
    json: { originalName: 'notes.txt', size: 5, type: 'text/plain' },
  });
  expect(started.status).toBe(200);
  await fetch(started.body.url, { method: 'PUT', body: 'hello', headers: started.body.headers });
  await webhooks.settled();
  expect(newOn('/http/upload', before)).toHaveLength(1);
  const completed = await call('POST', `/api/user/files/uploads/${started.body.id}/complete`, {
    token: owner.token,
  });
  expect(completed.status).toBe(200);
  await webhooks.settled();
  expect(JSON.parse(newOn('/http/upload', before)[1]?.body ?? '{}').data.file.id).toBe(
    completed.body.files[0].id,
  );
});

test('Zipline’s partial upload is announced after its last chunk', async () => {
  const before = receiver.on('/http/upload').length;
  const send = (start: number, bytes: Buffer, identifier?: string) => {
    const { body, contentType } = multipart([
      { fileName: 'blob', type: 'application/octet-stream', content: bytes },
    ]);
    return call('POST', '/api/upload/partial', {
      token: owner.token,
      raw: body,
      headers: {
        'content-type': contentType,
        'content-range': `bytes ${start}-${start + bytes.length}/${CHUNK + 10}`,
        'x-zipline-p-filename': 'film.mp4',
        'x-zipline-p-content-type': 'video/mp4',
        'x-zipline-p-content-length': String(CHUNK + 10),
        'x-zipline-p-lastchunk': String(start + bytes.length === CHUNK + 10),
        ...(identifier ? { 'x-zipline-p-identifier': identifier } : {}),
      },
    });
  };
  const first = await send(0, randomBytes(CHUNK));
  expect(first.status).toBe(200);
  await send(CHUNK, randomBytes(10), first.body.partialIdentifier);
  await webhooks.settled();
  expect(newOn('/http/upload', before).map((entry) => JSON.parse(entry.body).data.file.originalName)).toEqual(
    ['film.mp4'],
  );
});

test('a 500 is retried with backoff and the retry delivers; a redirect is not followed', async () => {
  await patch({ httpWebhookOnUpload: receiver.url('/http/flaky') });
  receiver.answer('/http/flaky', { status: 500 }, { status: 502 }, { status: 200 });
  await upload(owner.token, [{ fileName: 'a.txt', type: 'text/plain', content: Buffer.from('a') }]);
  await webhooks.settled();
  const attempts = receiver.on('/http/flaky');
  expect(attempts).toHaveLength(3);
  expect(new Set(attempts.map((entry) => JSON.parse(entry.body).id)).size).toBe(1);

  await patch({ httpWebhookOnUpload: receiver.url('/http/moved') });
  receiver.answer('/http/moved', { status: 302, headers: { location: receiver.url('/http/elsewhere') } });
  await upload(owner.token, [{ fileName: 'b.txt', type: 'text/plain', content: Buffer.from('b') }]);
  await webhooks.settled();
  expect(receiver.on('/http/moved')).toHaveLength(1);
  expect(receiver.on('/http/elsewhere')).toHaveLength(0);
  await patch({ httpWebhookOnUpload: receiver.url('/http/upload') });
});

test('a failing Discord webhook is logged with its URL’s host only, never its token', async () => {
  const logged = jest.spyOn(logger, 'error');
  await patch({ discordWebhookUrl: receiver.url('/api/webhooks/9/another-secret-token') });
  receiver.answer('/api/webhooks/9/another-secret-token', { status: 404, body: 'Unknown Webhook' });
  await upload(owner.token, [{ fileName: 'c.txt', type: 'text/plain', content: Buffer.from('c') }]);
  await webhooks.settled();
  const lines = JSON.stringify(logged.mock.calls);
  logged.mockRestore();
  expect(lines).toContain('webhook refused, not retried');
  expect(lines).toContain(`http://127.0.0.1:${receiver.port}/…`);
  expect(lines).not.toContain('another-secret-token');
  expect(lines).not.toContain(SECRET);
  await patch({ discordWebhookUrl: null });
});

test('the secret is answered masked, the mask sent back keeps it, and bad targets are refused', async () => {
  const read = await call('GET', '/api/server/settings', { cookie: root.cookie });
  expect(read.body.settings.httpWebhookSecret).toBe(MASKED_SECRET);
  expect(JSON.stringify(read.body)).not.toContain(SECRET);
  expect((await patch({ httpWebhookSecret: MASKED_SECRET })).body.settings.httpWebhookSecret).toBe(
    MASKED_SECRET,
  );
  // Still the secret: the next delivery verifies with it.
  const before = receiver.on('/http/upload').length;
  await upload(owner.token, [{ fileName: 'd.txt', type: 'text/plain', content: Buffer.from('d') }]);
  await webhooks.settled();
  verified(newOn('/http/upload', before)[0] as never);
  for (const [json, message] of [
    [{ httpWebhookOnUpload: 'ftp://example.com/hook' }, 'httpWebhookOnUpload: must be an https:// URL'],
    [
      { httpWebhookOnUpload: 'https://169.254.169.254/latest' },
      'must not point to a loopback, link-local or private address',
    ],
    [
      { discordWebhookUrl: 'https://10.0.0.7/api/webhooks/1/x' },
      'must not point to a loopback, link-local or private address',
    ],
    [{ httpWebhookOnShorten: 'https://user:pw@example.com/' }, 'must not carry a user name or password'],
    [{ httpWebhookSecret: 'short' }, 'httpWebhookSecret: must be 16 to 256 printable characters'],
    [{ discordOnUploadEmbed: { color: 'red' } }, 'color must be #rrggbb'],
  ] as const) {
    const refused = await patch(json);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toContain(message);
  }
});
