// `npm run bench:peer [-- --quick] [-- --zipline <dir>]`: Zipline v4 and `npm start` side by side on
// this machine, under the same loads in the same run (docs/performance.md, "Side by side with
// Zipline"): GET /api/user, the first page of the file list with 200 files, uploads (one at a time and
// 10 at once, small and 1 MB), a file's view page and a short link's redirect. Prints the tables and
// writes them with the raw figures to bench/peer/results(.quick).json. Everything it starts is stopped
// on exit, on failure and on Ctrl-C.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../infra/project-root.ts';
import { startAsUsersDo } from '../npm-start.ts';
import {
  enableViewPages,
  redirects,
  setUp,
  shorten,
  tokenOf,
  type UploadBody,
  uploadBody,
  uploadOne,
} from './client.ts';
import { type Measurement, measure, type Side } from './measure.ts';
import { measurementsTable, ratiosTable } from './report.ts';
import { type Cleanup, startPostgres, startZipline } from './servers.ts';

const argv = process.argv.slice(2);
const quick = argv.includes('--quick');
const ziplineDir = argv[argv.indexOf('--zipline') + 1] ?? process.env.ZIPLINE_DIR;
if (!argv.includes('--zipline') && !process.env.ZIPLINE_DIR) {
  console.error('usage: npm run bench:peer -- --zipline <built Zipline v4 tree> [--quick] (or ZIPLINE_DIR)');
  process.exit(2);
}
const settings = quick
  ? { warmSeconds: 5, seconds: 5, runs: 1, small: 200, smallAtOnce: 200, large: 20, largeAtOnce: 50 }
  : { warmSeconds: 20, seconds: 10, runs: 2, small: 200, smallAtOnce: 500, large: 100, largeAtOnce: 200 };
const CONNECTIONS = 10;
const USERNAME = 'bench';
const PASSWORD = `peer-bench-${process.pid}-password`;

const cleanups: Cleanup[] = [];
const scratch = mkdtempSync(join(tmpdir(), 'peer-bench-'));
let stopping: Promise<void> | undefined;
function stopAll(): Promise<void> {
  stopping ??= (async () => {
    for (const cleanup of cleanups.reverse()) {
      try {
        await cleanup();
      } catch (error) {
        console.error('while stopping:', error);
      }
    }
    rmSync(scratch, { recursive: true, force: true });
  })();
  return stopping;
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`${signal}: stopping everything started`);
    void stopAll().then(() => process.exit(130));
  });
}

const started = performance.now();
const step = (what: string) =>
  console.error(`[${((performance.now() - started) / 1000).toFixed(0)} s] ${what}`);
const uptime = () => execFileSync('uptime', { encoding: 'utf8' }).trim();
const measurements: Measurement[] = [];

/** Both sides in turn, Zipline first, each run after a warm-up of each (not recorded). */
async function sideBySide(
  sides: Side[],
  scenario: string,
  pathOf: (side: Side) => string,
  options: { warm?: boolean; amount?: number; connections?: number; body?: UploadBody; runs?: number[] },
) {
  const load = (seconds: number) => ({
    connections: options.connections ?? CONNECTIONS,
    seconds,
    ...(options.amount ? { amount: options.amount } : {}),
    ...(options.body
      ? { method: 'POST', bodyFile: options.body.file, headers: { 'content-type': options.body.contentType } }
      : {}),
  });
  if (options.warm !== false) {
    for (const side of sides) await measure(side, scenario, 0, pathOf(side), load(settings.warmSeconds));
  }
  for (const run of options.runs ?? Array.from({ length: settings.runs }, (_, index) => index + 1)) {
    for (const side of sides) {
      const measured = await measure(side, scenario, run, pathOf(side), load(settings.seconds));
      measurements.push(measured);
      step(
        `${scenario} #${run} ${side.name}: ${measured.requestsPerSecond} req/s, p50 ${measured.latencyP50Ms} ms, ` +
          `${measured.cpuAllMsPerRequest} ms CPU/req (node ${measured.cpuNodeMsPerRequest}), other work ${measured.otherCpuPercent} %`,
      );
    }
  }
}

let exitCode = 0;
try {
  const loadAtStart = uptime();
  step(`scratch ${scratch}; ${loadAtStart}`);
  const postgres = await startPostgres(scratch, cleanups);
  const zipline = await startZipline(ziplineDir as string, postgres, scratch, cleanups);
  step(`zipline ${zipline.version} at ${zipline.url} (postgres ${postgres.version})`);
  const service = await startAsUsersDo({ ADMIN_USERNAME: USERNAME, ADMIN_PASSWORD: PASSWORD });
  cleanups.push(() => service.stop());
  step(`ours at ${service.url}`);
  await setUp(zipline.url, USERNAME, PASSWORD);
  const sides: Side[] = [
    {
      name: 'zipline',
      url: zipline.url,
      token: await tokenOf(zipline.url, USERNAME, PASSWORD),
      roots: [zipline.pid, postgres.postmasterPid],
      nodePid: zipline.pid,
    },
    {
      name: 'ours',
      url: service.url,
      token: await tokenOf(service.url, USERNAME, PASSWORD),
      roots: [service.runnerPid],
      nodePid: service.runnerPid,
    },
  ];
  await sideBySide(sides, 'GET /api/user', () => '/api/user', {});

  const small = uploadBody(scratch, 'bench.txt', 150);
  const large = uploadBody(scratch, 'bench.bin.txt', 1024 * 1024);
  const upload = (label: string, body: UploadBody, amount: number, connections: number, runs?: number[]) =>
    sideBySide(sides, `POST /api/upload (${label})`, () => '/api/upload', {
      warm: false,
      amount,
      connections,
      body,
      ...(runs ? { runs } : {}),
    });
  // The first run of one-at-a-time uploads makes the 200 files the listing pages through.
  await upload('150 B, 1 at a time', small, settings.small, 1, [1]);
  await sideBySide(
    sides,
    'GET /api/user/files (page 1 of 200, perpage 9)',
    () => '/api/user/files?page=1&perpage=9',
    {},
  );
  const laterRuns = Array.from({ length: settings.runs - 1 }, (_, index) => index + 2);
  if (laterRuns.length > 0) await upload('150 B, 1 at a time', small, settings.small, 1, laterRuns);
  await upload('150 B, 10 at once', small, settings.smallAtOnce, 10);
  await upload('1 MiB, 1 at a time', large, settings.large, 1);
  await upload('1 MiB, 10 at once', large, settings.largeAtOnce, 10);

  const viewed = new Map<string, string>();
  for (const side of sides) {
    await enableViewPages(side.url, side.token);
    viewed.set(side.name, await uploadOne(side.url, side.token));
  }
  await sideBySide(
    sides,
    'GET /view/{name} (a text file)',
    (side) => `/view/${encodeURIComponent(viewed.get(side.name) ?? '')}`,
    {},
  );

  const codes = new Map<string, string>();
  for (const side of sides) codes.set(side.name, await shorten(side.url, side.token));
  const redirecting = [];
  for (const side of sides) {
    if (await redirects(side.url, `/go/${codes.get(side.name)}`)) redirecting.push(side);
    else step(`${side.name}: /go/{code} does not redirect in this build: measured for the others alone`);
  }
  await sideBySide(redirecting, 'GET /go/{code} (redirect)', (side) => `/go/${codes.get(side.name)}`, {});

  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
    cwd: PROJECT_ROOT,
    encoding: 'utf8',
  }).trim();
  const header =
    `Zipline ${zipline.version} (Postgres ${postgres.version}) vs ours at ${commit}, ${new Date().toISOString()}, ` +
    `${availableParallelism()} CPUs, ${CONNECTIONS} connections × ${settings.seconds} s after ${settings.warmSeconds} s of warm-up` +
    `${quick ? ' (--quick)' : ''}.\nAt the start: ${loadAtStart}\nAt the end:   ${uptime()}`;
  const report = [
    header,
    '',
    measurementsTable(measurements),
    '',
    'ours / Zipline, same run:',
    '',
    ratiosTable(measurements),
  ].join('\n');
  console.log(report);
  writeFileSync(
    join(PROJECT_ROOT, 'bench', 'peer', quick ? 'results.quick.json' : 'results.json'),
    `${JSON.stringify({ commit, quick, settings, loadAverageAtEnd: loadavg(), measurements, report }, null, 2)}\n`,
  );
} catch (error) {
  console.error(error);
  exitCode = 1;
} finally {
  step('stopping everything started');
  await stopAll();
}
process.exit(exitCode);
