import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../../infra/local/dynamodb.ts';

/**
 * The peer's processes, each started on 127.0.0.1 on a free port with its data in the run's scratch
 * folder: a Postgres cluster of its own (fresh initdb, its defaults, as Zipline's compose file runs
 * the postgres image) and Zipline v4 in production mode as its Dockerfile starts it. Every start
 * registers its stop in `cleanups`, which the run calls on exit, failure and Ctrl-C.
 */

export type Cleanup = () => Promise<void> | void;

const POSTGRES_USER = 'postgres';

function postgresBin(): string {
  const versions = readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a));
  const bin = versions
    .map((version) => `/usr/lib/postgresql/${version}/bin`)
    .find((dir) => existsSync(`${dir}/postgres`));
  if (!bin) throw new Error('no PostgreSQL server in /usr/lib/postgresql (apt-get install postgresql)');
  return bin;
}

/** Runs a PostgreSQL tool as the postgres user (it refuses to run as root). */
const asPostgres = (tool: string, args: string[]) =>
  execFileSync('runuser', ['-u', POSTGRES_USER, '--', `${postgresBin()}/${tool}`, ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });

export interface Postgres {
  url: string;
  postmasterPid: number;
  version: string;
}

export async function startPostgres(scratch: string, cleanups: Cleanup[]): Promise<Postgres> {
  chmodSync(scratch, 0o755); // mkdtemp's 0700 would keep the postgres user out
  const data = join(scratch, 'pg');
  const sockets = join(scratch, 'pg-sockets');
  for (const dir of [data, sockets]) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const { uid, gid } = userIds(POSTGRES_USER);
    chownSync(dir, uid, gid);
  }
  asPostgres('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8']);
  const port = await freePort();
  const options = `-p ${port} -k ${sockets} -c listen_addresses=127.0.0.1`;
  asPostgres('pg_ctl', ['-D', data, '-l', join(sockets, 'postgres.log'), '-w', '-o', options, 'start']);
  cleanups.push(() => {
    asPostgres('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
  });
  const postmasterPid = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
  execFileSync('psql', [
    '-q',
    '-h',
    '127.0.0.1',
    '-p',
    String(port),
    '-U',
    'postgres',
    '-c',
    'CREATE DATABASE zipline',
  ]);
  // `postgres (PostgreSQL) 15.18 (Debian 15.18-0+deb12u1)`
  const version = asPostgres('postgres', ['--version']).trim().split(' ')[2] ?? '?';
  return { url: `postgresql://postgres@127.0.0.1:${port}/zipline`, postmasterPid, version };
}

function userIds(name: string): { uid: number; gid: number } {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith(`${name}:`));
  const [, , uid, gid] = line?.split(':') ?? [];
  if (uid === undefined || gid === undefined) throw new Error(`no ${name} user (is PostgreSQL installed?)`);
  return { uid: Number(uid), gid: Number(gid) };
}

/**
 * Zipline's schema: its v4 branch has no migrations (it ran `prisma db push`), so the SQL comes from
 * `prisma migrate diff` from empty to its schema, written to the scratch folder (the tree stays read-only).
 */
function createSchema(ziplineDir: string, postgres: Postgres, scratch: string): void {
  const sql = execFileSync(
    join(ziplineDir, 'node_modules', '.bin', 'prisma'),
    ['migrate', 'diff', '--from-empty', '--to-schema-datamodel', 'prisma/schema.prisma', '--script'],
    {
      cwd: ziplineDir,
      env: { ...process.env, DATABASE_URL: postgres.url },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const file = join(scratch, 'zipline-schema.sql');
  writeFileSync(file, sql);
  execFileSync('psql', ['-q', '-v', 'ON_ERROR_STOP=1', '-d', postgres.url, '-f', file], { stdio: 'ignore' });
}

/** A child in a process group of its own, stopped with SIGTERM, then the group with SIGKILL after 20 s. */
export function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const kill = setTimeout(() => {
      try {
        process.kill(-(child.pid as number), 'SIGKILL');
      } catch {
        // Gone meanwhile.
      }
    }, 20_000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

export async function waitForHttp(url: string, seconds: number, child?: ChildProcess): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null) throw new Error(`${url}: the server exited with ${child.exitCode}`);
    try {
      await fetch(url, { signal: AbortSignal.timeout(2000) });
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  throw new Error(`no answer from ${url} within ${seconds} s`);
}

export interface Zipline {
  url: string;
  pid: number;
  version: string;
}

export async function startZipline(
  ziplineDir: string,
  postgres: Postgres,
  scratch: string,
  cleanups: Cleanup[],
): Promise<Zipline> {
  if (
    !existsSync(join(ziplineDir, 'build', 'server', 'index.js')) ||
    !existsSync(join(ziplineDir, '.next', 'BUILD_ID'))
  ) {
    throw new Error(
      `${ziplineDir} is not a built Zipline v4 tree (docs/performance.md says how to build one)`,
    );
  }
  createSchema(ziplineDir, postgres, scratch);
  const port = await freePort();
  const log = createWriteStream(join(scratch, 'zipline.log'));
  const child = spawn(
    process.execPath,
    ['--require', 'dotenv/config', '--enable-source-maps', './build/server'],
    {
      cwd: ziplineDir,
      detached: true,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        NODE_ENV: 'production',
        NEXT_TELEMETRY_DISABLED: '1',
        CORE_PORT: String(port),
        CORE_HOSTNAME: '127.0.0.1',
        CORE_SECRET: randomBytes(24).toString('hex'),
        DATABASE_URL: postgres.url,
        DATASOURCE_TYPE: 'local',
        DATASOURCE_LOCAL_DIRECTORY: join(scratch, 'zipline-uploads'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  cleanups.push(() => stopChild(child));
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/api/setup`, 180, child);
  const version = JSON.parse(readFileSync(join(ziplineDir, 'package.json'), 'utf8')).version as string;
  return { url, pid: child.pid as number, version };
}
