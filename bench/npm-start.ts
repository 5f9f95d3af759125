import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../infra/local/dynamodb.ts';
import { PROJECT_ROOT } from '../infra/project-root.ts';
import { npmStartArguments } from '../tests/support/runner.ts';
import { commandOf, processTree } from './processes.ts';

export interface StartedService {
  url: string;
  /** The runner's Node process (`npm start` without npm's own process in between). */
  runnerPid: number;
  /** DynamoDB Local's JVM, the runner's child. */
  dynamoPid: number;
  dynamoEndpoint: string;
  /** Lines the runner has written to stdout (one per request at the default level). */
  loggedLines(): number;
  stop(): Promise<void>;
}

const ADMIN_PASSWORD = 'benchmark-admin-password';

/**
 * `npm start` as a user runs it: package.json's start script (same launcher, bundle and flags), a
 * fresh persistent DATA_DIR, the default log level, stdout to a pipe this process drains. Only the
 * port and the first administrator's password are set (and what a measurement names in `settings`,
 * such as a limit); nothing the benchmark itself configured for its other measurements (table,
 * keys, endpoints) reaches it.
 */
export async function startAsUsersDo(settings: Record<string, string> = {}): Promise<StartedService> {
  const dataDir = mkdtempSync(join(tmpdir(), 'file-service-bench-data-'));
  const port = await freePort();
  const child = spawn(process.execPath, npmStartArguments(), {
    cwd: PROJECT_ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      DATA_DIR: dataDir,
      PORT: String(port),
      ADMIN_PASSWORD,
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      ...settings,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let lines = 0;
  const dynamoEndpoint = await new Promise<string>((resolve, reject) => {
    let startup = '';
    let started = false;
    child.stdout.on('data', (chunk: Buffer) => {
      for (const byte of chunk) if (byte === 10) lines++;
      if (started) return;
      startup += chunk.toString();
      const match = /listening on .* DynamoDB Local at (http:\/\/[\d.:]+)\)/.exec(startup);
      started = match !== null;
      if (match) resolve(match[1] as string);
    });
    child.once('exit', (code) => reject(new Error(`npm start exited with ${code}:\n${startup}`)));
  });
  const runnerPid = child.pid as number;
  const dynamoPid = processTree(runnerPid).find((pid) => commandOf(pid) === 'java');
  if (!dynamoPid) throw new Error('no DynamoDB Local process under the runner');
  return {
    url: `http://127.0.0.1:${port}`,
    runnerPid,
    dynamoPid,
    dynamoEndpoint,
    loggedLines: () => lines,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => {
          rmSync(dataDir, { recursive: true, force: true });
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

/** An API token of the first administrator, through the API as a client gets one. */
export async function adminToken(url: string): Promise<string> {
  const login = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'administrator', password: ADMIN_PASSWORD }),
  });
  const cookie = login.headers.getSetCookie()[0]?.split(';')[0];
  if (login.status !== 200 || !cookie) throw new Error(`benchmark login failed: ${login.status}`);
  const answer = await fetch(`${url}/api/user/token`, { headers: { cookie } });
  return ((await answer.json()) as { token: string }).token;
}
