#!/usr/bin/env node
// Uploads, ours against Zipline v4, side by side in one run (issue 39): the same multipart
// `POST /api/upload` (field `file`, `Authorization: <token>`) to `npm start`'s runner and to a Zipline
// instance of its own (own Postgres cluster and upload folder), one at a time and 10 at once, small
// files and 1 MB ones. Per server and pattern: uploads a second, ms per upload, and the CPU ms per
// upload of the server's processes (ours: the runner and DynamoDB Local's JVM; Zipline: node and
// every Postgres process), read from /proc before and after. Prints a table with `uptime`.
//
//   node bench/upload-timing.mjs [--zipline DIR] [--files 200] [--rounds 2] [--only ours|zipline]
//                                [--node-args "--cpu-prof --cpu-prof-dir=/tmp/prof"]
//
// --zipline: a Zipline tree built by ../shared/peer/zipline/setup.sh (needs `su postgres` for
// its own initdb). Without it, ours alone. Everything started is stopped on exit (by process group;
// Postgres with pg_ctl stop); scratch data goes to a temporary folder, removed on exit.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) =>
  args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : fallback;
const FILES = Number(option('files', 200));
const ROUNDS = Number(option('rounds', 2));
const ZIPLINE = option('zipline', undefined);
const ONLY = option('only', undefined);
const NODE_ARGS = (option('node-args', '') ?? '').split(' ').filter(Boolean);
const PASSWORD = `bench-${randomBytes(6).toString('hex')}`;
const work = mkdtempSync(join(tmpdir(), 'upload-timing-'));
chmodSync(work, 0o755);
const TICK_MS = 1000 / (Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100);

const freePort = () =>
  new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

/** Every process under `roots` (children via /proc/PID/task/PID/children), with its CPU ms. */
function treeCpu(roots) {
  const cpu = new Map();
  const visit = (pid) => {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      const comm = readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
      cpu.set(pid, { comm, ms: (Number(fields[11]) + Number(fields[12])) * TICK_MS });
      for (const task of readdirSync(`/proc/${pid}/task`)) {
        const children = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
        for (const child of children.split(/\s+/).filter(Boolean)) visit(Number(child));
      }
    } catch {
      // Gone meanwhile.
    }
  };
  for (const pid of roots) visit(pid);
  return cpu;
}

const byComm = (before, after) => {
  const sums = {};
  for (const [pid, { comm, ms }] of after) {
    const name = comm.startsWith('postgres') || comm.startsWith('postmaster') ? 'postgres' : comm;
    sums[name] = (sums[name] ?? 0) + ms - (before.get(pid)?.ms ?? 0);
  }
  return sums;
};

const started = [];
async function waitHttp(url, seconds) {
  for (let i = 0; i < seconds * 4; i++) {
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  throw new Error(`no answer from ${url}`);
}

async function startOurs() {
  const port = await freePort();
  const child = spawn(process.execPath, [...NODE_ARGS, 'infra/local/launch.mjs'], {
    cwd: root,
    detached: true,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATA_DIR: join(work, 'ours'),
      PORT: String(port),
      HOST: '127.0.0.1',
      ADMIN_USERNAME: 'bench',
      ADMIN_PASSWORD: PASSWORD,
      ...(process.env.OURS_ENV
        ? Object.fromEntries(process.env.OURS_ENV.split(' ').map((kv) => kv.split('=')))
        : {}),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  started.push(() => process.kill(-child.pid, 'SIGTERM'));
  const url = `http://127.0.0.1:${port}`;
  await waitHttp(`${url}/api/user`, 180);
  return { name: 'ours', url, roots: [child.pid] };
}

const pgBin = () =>
  readdirSync('/usr/lib/postgresql')
    .sort((a, b) => Number(a) - Number(b))
    .map((version) => `/usr/lib/postgresql/${version}/bin`)
    .at(-1);
const asPostgres = (command) => execFileSync('su', ['postgres', '-c', command], { stdio: 'pipe' });

async function startZipline(dir) {
  const bin = pgBin();
  const pgPort = await freePort();
  const data = join(work, 'pg');
  mkdirSync(data);
  mkdirSync(join(work, 'pgsock'));
  execFileSync('chown', ['postgres:postgres', data, join(work, 'pgsock')]);
  chmodSync(data, 0o700);
  asPostgres(`${bin}/initdb -D ${data} -U postgres --auth=trust -E UTF8`);
  asPostgres(
    `${bin}/pg_ctl -D ${data} -l ${data}/log -w -o '-p ${pgPort} -k ${work}/pgsock -c listen_addresses=127.0.0.1' start`,
  );
  started.push(() => asPostgres(`${bin}/pg_ctl -D ${data} -m fast -w stop`));
  const pgPid = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const databaseUrl = `postgresql://postgres@127.0.0.1:${pgPort}/zipline`;
  execFileSync('psql', [
    '-q',
    '-h',
    '127.0.0.1',
    '-p',
    String(pgPort),
    '-U',
    'postgres',
    '-c',
    'CREATE DATABASE zipline',
  ]);
  // Zipline's schema as SQL (its tree has no migrations): generated into the scratch folder, the tree stays as it is.
  let schema = join(dir, 'prisma', 'bench-init.sql');
  if (!existsSync(schema)) {
    schema = join(work, 'zipline-schema.sql');
    const sql = execFileSync(
      'node_modules/.bin/prisma',
      ['migrate', 'diff', '--from-empty', '--to-schema-datamodel', 'prisma/schema.prisma', '--script'],
      {
        cwd: dir,
        env: { ...process.env, DATABASE_URL: databaseUrl },
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      },
    );
    writeFileSync(schema, sql);
  }
  execFileSync('psql', [
    '-q',
    '-v',
    'ON_ERROR_STOP=1',
    '-h',
    '127.0.0.1',
    '-p',
    String(pgPort),
    '-U',
    'postgres',
    '-d',
    'zipline',
    '-f',
    schema,
  ]);
  const port = await freePort();
  const child = spawn(
    process.execPath,
    ['--require', 'dotenv/config', '--enable-source-maps', './build/server'],
    {
      cwd: dir,
      detached: true,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NODE_ENV: 'production',
        NEXT_TELEMETRY_DISABLED: '1',
        CORE_PORT: String(port),
        CORE_HOSTNAME: '127.0.0.1',
        CORE_SECRET: randomBytes(24).toString('hex'),
        DATABASE_URL: databaseUrl,
        DATASOURCE_TYPE: 'local',
        DATASOURCE_LOCAL_DIRECTORY: join(work, 'zipline-uploads'),
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  started.push(() => process.kill(-child.pid, 'SIGTERM'));
  const url = `http://127.0.0.1:${port}`;
  await waitHttp(`${url}/api/setup`, 180);
  await call(url, 'POST', '/api/setup', { json: { username: 'bench', password: PASSWORD } });
  return { name: 'zipline', url, roots: [child.pid, pgPid] };
}

async function call(base, method, path, { json, headers = {}, body } = {}) {
  const init = { method, headers: { ...headers } };
  if (json !== undefined) {
    init.headers['content-type'] = 'application/json';
    init.body = JSON.stringify(json);
  } else if (body !== undefined) init.body = body;
  const res = await fetch(base + path, init);
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} -> ${res.status} ${text.slice(0, 300)}`);
  return { res, text };
}

async function tokenOf(server) {
  const login = await call(server.url, 'POST', '/api/auth/login', {
    json: { username: 'bench', password: PASSWORD },
  });
  const cookie = login.res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const { text } = await call(server.url, 'GET', '/api/user/token', { headers: { cookie } });
  server.token = JSON.parse(text).token;
}

const MB = randomBytes(1024 * 1024);
function form(size, index) {
  const data = new FormData();
  if (size === 'small') {
    const text = `bench file ${index} ${'x'.repeat(100 + (index % 50))}\n`;
    data.append('file', new Blob([text], { type: 'text/plain' }), `bench-${index}.txt`);
  } else {
    data.append('file', new Blob([MB], { type: 'application/octet-stream' }), `bench-${index}.bin`);
  }
  return data;
}

/** `count` uploads, `concurrency` at a time; wall time and CPU of the server's processes. */
async function measure(server, size, concurrency, count) {
  const before = treeCpu(server.roots);
  const t0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const index = next++;
        await call(server.url, 'POST', '/api/upload', {
          headers: { authorization: server.token },
          body: form(size, index),
        });
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const cpu = byComm(before, treeCpu(server.roots));
  const total = Object.values(cpu).reduce((a, b) => a + b, 0);
  return {
    server: server.name,
    pattern: `${size} x${concurrency}`,
    perSecond: count / seconds,
    cpuMsPerUpload: total / count,
    split: Object.fromEntries(Object.entries(cpu).map(([name, ms]) => [name, +(ms / count).toFixed(2)])),
  };
}

const stopAll = () => {
  for (const stop of started.reverse()) {
    try {
      stop();
    } catch {
      // Already gone.
    }
  }
  rmSync(work, { recursive: true, force: true });
};
process.on('SIGINT', () => process.exit(130));
process.on('exit', stopAll);

const servers = [];
if (ZIPLINE && ONLY !== 'ours') servers.push(await startZipline(ZIPLINE));
if (ONLY !== 'zipline') servers.push(await startOurs());
for (const server of servers) {
  await tokenOf(server);
  await measure(server, 'small', 1, 50); // warm-up, not recorded
  await measure(server, '1mb', 1, 10);
}
const patterns = [
  ['small', 1, FILES],
  ['small', 10, FILES],
  ['1mb', 1, Math.ceil(FILES / 4)],
  ['1mb', 10, Math.ceil(FILES / 4)],
];
const rows = [];
for (let round = 1; round <= ROUNDS; round++) {
  for (const [size, concurrency, count] of patterns) {
    for (const server of servers) {
      const row = { round, ...(await measure(server, size, concurrency, count)) };
      rows.push(row);
      console.error(JSON.stringify(row));
    }
  }
}
const load = execFileSync('uptime', { encoding: 'utf8' }).trim();
const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
console.log(`\n${new Date().toISOString()}, ours at ${commit}, ${load}\n`);
console.log(
  '| pattern | round | server | uploads/s | CPU ms/upload | split (ms/upload) | ratio ours/zipline (rate, CPU) |',
);
console.log('|---|---|---|---|---|---|---|');
for (const row of rows) {
  const peer = rows.find(
    (other) => other.round === row.round && other.pattern === row.pattern && other !== row,
  );
  const ratio =
    row.server === 'ours' && peer
      ? `${(row.perSecond / peer.perSecond).toFixed(2)}×, ${(row.cpuMsPerUpload / peer.cpuMsPerUpload).toFixed(2)}×`
      : '';
  console.log(
    `| ${row.pattern} | ${row.round} | ${row.server} | ${row.perSecond.toFixed(1)} | ${row.cpuMsPerUpload.toFixed(2)} | ${JSON.stringify(row.split)} | ${ratio} |`,
  );
}
process.exit(0);
