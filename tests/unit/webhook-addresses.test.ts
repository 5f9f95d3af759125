import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  ForbiddenTarget,
  isForbiddenAddress,
  redactedUrl,
  webhookUrlProblem,
} from '#shared/webhooks/addresses';
import { postJson, RESPONSE_BYTES_READ } from '#shared/webhooks/post';
import { startReceiver } from '../support/webhook-receiver.ts';

/**
 * Where a webhook may never go (docs/webhooks.md#forbidden-addresses, docs/security.md): checked on
 * the URL's IP literal and on every address its name resolves to, in the lookup the connection
 * uses. The receiver is a real server on 127.0.0.1: without the test-only allowance nothing reaches it.
 */
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.stop());

const refusedWithout = { allowLoopback: false };
const allowed = { allowLoopback: true };

test.each([
  ['127.0.0.1', true],
  ['127.8.9.10', true],
  ['::1', true],
  ['::ffff:127.0.0.1', true],
  ['169.254.169.254', true],
  ['10.1.2.3', true],
  ['172.16.0.1', true],
  ['172.31.255.255', true],
  ['192.168.0.10', true],
  ['100.64.0.1', true],
  ['0.0.0.0', true],
  ['0.1.2.3', true],
  ['224.0.0.1', true],
  ['255.255.255.255', true],
  ['fd00::1', true],
  ['fc00::1', true],
  ['fe80::1', true],
  ['::', true],
  ['::ffff:10.0.0.1', true],
  ['64:ff9b::a00:1', true],
  ['not an address', true],
  ['93.184.216.34', false],
  ['162.159.135.232', false],
  ['172.32.0.1', false],
  ['2606:4700::6810:85e5', false],
])('%s forbidden: %s', (address, forbidden) => {
  expect(isForbiddenAddress(address, false)).toBe(forbidden);
});

test('the allowance opens loopback only: link-local, private and the rest stay forbidden', () => {
  expect(isForbiddenAddress('127.0.0.1', true)).toBe(false);
  expect(isForbiddenAddress('::1', true)).toBe(false);
  for (const address of ['169.254.169.254', '10.0.0.1', '192.168.1.1', '100.64.0.1', 'fd00::1', '0.0.0.0']) {
    expect(isForbiddenAddress(address, true)).toBe(true);
  }
});

test.each([
  'https://127.0.0.1:PORT/hook',
  'https://localhost:PORT/hook',
  'https://[::1]:PORT/hook',
  'https://[::ffff:127.0.0.1]:PORT/hook',
  'https://0x7f.1:PORT/hook',
  'https://2130706433:PORT/hook',
  'http://127.0.0.1:PORT/hook',
])('without the allowance %s is refused before anything is sent', async (template) => {
  const before = receiver.received.length;
  const url = template.replace('PORT', String(receiver.port));
  await expect(postJson(url, '{}', {}, refusedWithout)).rejects.toBeInstanceOf(ForbiddenTarget);
  expect(receiver.received.length).toBe(before);
});

test('a name that resolves to loopback is refused after resolution: localhost', async () => {
  const before = receiver.received.length;
  await expect(postJson(`https://localhost:${receiver.port}/hook`, '{}', {}, refusedWithout)).rejects.toThrow(
    /localhost resolves to a forbidden address|must not point/,
  );
  expect(receiver.received.length).toBe(before);
});

test.each([
  'http://169.254.169.254/latest/meta-data/',
  'http://10.0.0.1/hook',
  'http://192.168.1.1/hook',
  'http://[fd00::1]/hook',
  'http://0.0.0.0/hook',
])('even with the allowance %s is refused', async (url) => {
  await expect(postJson(url, '{}', {}, allowed)).rejects.toBeInstanceOf(ForbiddenTarget);
});

test('with the allowance the local receiver is reached, by address and by name', async () => {
  receiver.answer('/allowed', { status: 204 }, { status: 204 });
  expect((await postJson(receiver.url('/allowed'), '{"a":1}', {}, allowed)).status).toBe(204);
  expect((await postJson(`http://localhost:${receiver.port}/allowed`, '{}', {}, allowed)).status).toBe(204);
  expect(receiver.on('/allowed')[0]).toMatchObject({
    body: '{"a":1}',
    headers: { 'content-type': 'application/json' },
  });
});

test('the URL rules: https only (http with the allowance), no credentials, no forbidden literal', () => {
  expect(webhookUrlProblem('https://discord.com/api/webhooks/1/t', false)).toBeUndefined();
  expect(webhookUrlProblem('http://example.com/hook', false)).toBe('must be an https:// URL');
  expect(webhookUrlProblem('http://example.com/hook', true)).toBeUndefined();
  expect(webhookUrlProblem('file:///etc/passwd', true)).toBe('must be an https:// URL');
  expect(webhookUrlProblem('https://a:b@example.com/', false)).toBe('must not carry a user name or password');
  expect(webhookUrlProblem('https://[fe80::1]/', false)).toBe(
    'must not point to a loopback, link-local or private address',
  );
  expect(redactedUrl('https://discord.com/api/webhooks/123/token-part?wait=true')).toBe(
    'https://discord.com/…',
  );
});

describe('a receiver that misbehaves', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = createServer((request, response) => {
      if (request.url === '/silent') return; // never answers
      response.writeHead(500);
      response.end(Buffer.alloc(1024 * 1024, 'x'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });

  test('one that never answers is abandoned at the timeout', async () => {
    await expect(
      postJson(`http://127.0.0.1:${port}/silent`, '{}', {}, { allowLoopback: true, timeoutMs: 300 }),
    ).rejects.toThrow('no answer within 300 ms');
  });

  test('an answer of 1 MiB is read no further than its first KiB', async () => {
    const outcome = await postJson(`http://127.0.0.1:${port}/big`, '{}', {}, allowed);
    expect(outcome.status).toBe(500);
    expect(outcome.excerpt.length).toBeLessThanOrEqual(RESPONSE_BYTES_READ);
  });
});
