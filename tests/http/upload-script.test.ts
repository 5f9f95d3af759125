import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalServer } from '../../infra/local/server.ts';
import { DIRECT_UPLOAD_LIMIT, uploadScript } from '../../web/src/pages/settings/uploaders.ts';
import { call } from '../support/client.ts';
import { download } from '../support/files.ts';
import { signedInUser } from '../support/users.ts';

/**
 * The dashboard's upload.sh, run as its user runs it (bash and curl) against the local runner's HTTP
 * server: a file under the direct limit in one request, one above it through the presigned flow,
 * and a refusal printed as the service words it.
 */
let runner: Server;
let origin: string;
const dir = mkdtempSync(join(tmpdir(), 'upload-script-'));

beforeAll(async () => {
  runner = createLocalServer({ log: () => undefined });
  origin = await new Promise<string>((resolve) =>
    runner.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(runner.address() as AddressInfo).port}`),
    ),
  );
});
afterAll(() => {
  runner?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Writes the script for `token` and runs it on `file`: exit code, stdout, stderr. */
function runScript(token: string, file: string) {
  const script = join(dir, `upload-${randomBytes(4).toString('hex')}.sh`);
  writeFileSync(script, uploadScript(origin, token));
  chmodSync(script, 0o700);
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile('bash', [script, file], { timeout: 120_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

test('a file above the direct limit goes through the presigned flow; the printed link serves it', async () => {
  const owner = await signedInUser();
  const bytes = randomBytes(DIRECT_UPLOAD_LIMIT + 1024 * 1024);
  const file = join(dir, 'recording.webm');
  writeFileSync(file, bytes);
  const run = await runScript(owner.token, file);
  expect([run.code, run.stderr]).toEqual([0, '']);
  const link = run.stdout.trim();
  expect(link).toMatch(new RegExp(`^${origin}/u/[0-9a-z]+\\.webm$`));
  const fetched = await download(link);
  expect(fetched.bytes?.equals(bytes)).toBe(true);
  const listed = await call('GET', '/api/user/files', { token: owner.token });
  expect(listed.body.page[0]).toMatchObject({
    originalName: 'recording.webm',
    size: bytes.length,
    type: 'video/webm',
  });
}, 180_000);

test('a small file goes in one request', async () => {
  const owner = await signedInUser();
  const file = join(dir, 'note.txt');
  writeFileSync(file, 'Grüße\n');
  const run = await runScript(owner.token, file);
  expect(run.code).toBe(0);
  expect((await download(run.stdout.trim())).bytes?.toString()).toBe('Grüße\n');
}, 60_000);

test("a refusal prints the service's message and fails, on either path", async () => {
  const small = join(dir, 'small.txt');
  writeFileSync(small, 'x');
  const big = join(dir, 'big.bin');
  writeFileSync(big, Buffer.alloc(DIRECT_UPLOAD_LIMIT + 1));
  for (const file of [small, big]) {
    const run = await runScript('not-a-token', file);
    expect([run.code, run.stdout, run.stderr]).toEqual([1, '', 'upload failed (HTTP 401): not logged in\n']);
  }
}, 60_000);
