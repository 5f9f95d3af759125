import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { call } from '../support/client.ts';
import { startRunner, stopRunner } from '../support/runner.ts';
import { PASSWORD, signedInUser } from '../support/users.ts';

/** `npm run reset-password -- <args>` as a user runs it: its own process, exit code and output. */
function resetPassword(args: string[], env: Record<string, string>) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
    execFile(
      process.execPath,
      ['node_modules/tsx/dist/cli.mjs', 'infra/reset-password.ts', ...args],
      { env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env }, timeout: 120_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    ),
  );
}

const printedPassword = (stdout: string) => /reset to (\S+) \(/.exec(stdout)?.[1] as string;

test('against a running DynamoDB: a new password, printed once; the old one, the sessions and the token end', async () => {
  const user = await signedInUser('SUPERADMIN');
  const env = {
    DYNAMODB_ENDPOINT: process.env.DYNAMODB_ENDPOINT as string,
    TABLE_NAME: process.env.TABLE_NAME as string,
    BCRYPT_COST: '4',
  };
  const reset = await resetPassword([user.username], env);
  expect([reset.code, reset.stderr]).toEqual([0, '']);
  expect(reset.stdout).toMatch(
    new RegExp(
      `^password of SUPERADMIN "${user.username}" reset to \\S{16} \\(its sessions and API token were ended\\)\\n$`,
    ),
  );
  const login = (password: string) =>
    call('POST', '/api/auth/login', { json: { username: user.username, password } });
  expect((await login(PASSWORD)).status).toBe(401);
  expect((await login(printedPassword(reset.stdout))).status).toBe(200);
  expect((await call('GET', '/api/user', { token: user.token })).status).toBe(401);
  expect((await call('GET', '/api/user', { cookie: user.cookie })).status).toBe(401);

  const unknown = await resetPassword(['nobody-by-this-name'], env);
  expect([unknown.code, unknown.stderr]).toEqual([
    1,
    `no user named "nobody-by-this-name" in table ${env.TABLE_NAME}\n`,
  ]);
  expect((await resetPassword([], env)).code).toBe(2);
}, 120_000);

test("the local runner's data: npm start says how to recover the first password, and it works", async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'file-service-reset-'));
  try {
    const first = await startRunner(dataDir);
    expect(first.output()).toMatch(
      /created SUPERADMIN "administrator" with password \S+ \(lost it\? stop npm start and run: npm run reset-password -- administrator\)/,
    );
    expect(await stopRunner(first, 'SIGTERM')).toBe(0);
    const reset = await resetPassword(['administrator'], { DATA_DIR: dataDir });
    expect([reset.code, reset.stderr]).toEqual([0, '']);
    const second = await startRunner(dataDir);
    try {
      const login = await fetch(`${second.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'administrator', password: printedPassword(reset.stdout) }),
      });
      expect(login.status).toBe(200);
      // No AWS SDK notice about the Node version, on start or in the reset.
      expect(`${second.output()}${reset.stdout}`).not.toContain('NodeVersionSupportWarning');
    } finally {
      expect(await stopRunner(second, 'SIGTERM')).toBe(0);
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 240_000);
