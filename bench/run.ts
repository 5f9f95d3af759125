// `npm run bench [-- --quick] [-- --check]`: measures the built bundles and the handlers against
// DynamoDB Local and a local S3-compatible server (s3rver), and the dashboard in headless Chromium
// against the local runner (what `npm run bench:web` measures on its own), prints the tables, writes
// bench/results.json (quick runs: bench/results.quick.json) and with --check exits non-zero when a
// budget is broken. See docs/performance.md.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../infra/project-root.ts';
import { synthBundles } from './bundles.ts';
import { PRICES, PRICES_AS_OF, REGION } from './prices.ts';
import { startBenchServices } from './services.ts';
import { round, table } from './stats.ts';
import { throughputReport } from './throughput-report.ts';
import { checkWebBudgets, measureWeb, webReport } from './web.ts';

const args = new Set(process.argv.slice(2));
const quick = args.has('--quick');
const check = args.has('--check');
const settings = quick
  ? {
      standard: 30,
      password: 5,
      heavySetup: 10,
      coldStarts: 3,
      // The floors' warm-up also warms DynamoDB Local's JVM: at 3 s each its "warm" rounds ran 21 s after
      // a fresh start, still compiling, and the ratios measured the order of the runs, not the runner.
      load: { firstMinuteSlices: 2, sliceSeconds: 3, durationSeconds: 3, floorWarmupSeconds: 12, rounds: 1 },
      verifies: 5,
      webRuns: 3,
    }
  : {
      standard: 1000,
      password: 1000,
      heavySetup: 300,
      coldStarts: 10,
      load: {
        firstMinuteSlices: 6,
        sliceSeconds: 10,
        durationSeconds: 10,
        floorWarmupSeconds: 20,
        rounds: 3,
      },
      verifies: 20,
      webRuns: 5,
    };

const started = performance.now();
// Latencies measured on shared cores say little without the load they were measured under.
const loadAtStart = loadavg()[0] as number;
const step = (what: string) =>
  console.error(`[${((performance.now() - started) / 1000).toFixed(0)} s] ${what}`);

const { s3Local, stop } = await startBenchServices(step);

let assemblyDir: string | undefined;
try {
  step('synthesizing the stack with esbuild metafiles');
  const synthesized = synthBundles();
  assemblyDir = synthesized.assemblyDir;
  const { bundles } = synthesized;
  // Handler modules read the environment at import, so everything that loads them comes now.
  const { config } = await import('#shared/config/service');
  const { benchScenarios } = await import('./scenarios.ts');
  const { measureColdStarts } = await import('./cold-start.ts');
  const { measureBaseline, measureLatency, measureGetItemCpu } = await import('./latency.ts');
  const { measureThroughput } = await import('./throughput.ts');
  const { measureBcrypt, LOGIN_TARGET_MS } = await import('./bcrypt.ts');
  const { costPerMillion } = await import('./cost.ts');
  const { checkBudgets } = await import('./budgets.ts');
  const { measureGrid } = await import('./grid.ts');

  step('creating fixtures');
  const { scenarios, objectEvents, fixtures } = await benchScenarios();
  const userGet = scenarios.find((scenario) => scenario.name === 'GET /api/user (token)');
  if (!userGet) throw new Error('GET /api/user (token) scenario is missing');

  step(`cold starts: ${settings.coldStarts} fresh processes per bundle`);
  const coldStarts = await measureColdStarts(bundles, scenarios, settings.coldStarts, objectEvents);

  step(
    `warm latency: ${settings.standard} requests per endpoint (${settings.password} with bcrypt, ${settings.heavySetup} with an upload as setup), two paths`,
  );
  const baseline = await measureBaseline(userGet, settings.standard);
  const latency = await measureLatency(scenarios, settings);
  const costs = latency.map(costPerMillion);
  const getItemCpuMs = await measureGetItemCpu(fixtures.userId, settings.standard);

  step(
    `npm start: ${settings.load.firstMinuteSlices} × ${settings.load.sliceSeconds} s from the start, then ${settings.load.rounds} rounds of it and its floors in turn, ${settings.load.durationSeconds} s each`,
  );
  const throughput = await measureThroughput([1, 10, 50], settings.load);

  step('bcrypt');
  const bcrypt = await measureBcrypt(
    config().bcryptCost,
    settings.verifies,
    latency.find((item) => item.scenario === 'POST /api/auth/login'),
  );

  step('files grid of 15 images in Chromium (thumbnails made by the object-created feed)');
  const grid = await measureGrid(s3Local);
  step(`dashboard: login page first load, then sign-in → files shown ${settings.webRuns} times (Chromium)`);
  const web = await measureWeb(settings.webRuns);

  const budgets = [
    ...checkBudgets({ bundles, latency, costs, throughput, getItemCpuMs, grid }),
    ...checkWebBudgets(web),
  ];
  const kb = (bytes: number) => (bytes / 1000).toFixed(1);
  const ratio = (value: number, floor: number) => `${(value / floor).toFixed(1)}×`;

  console.log(
    `\nBundles (JavaScript Lambda loads; assets also carry the source map and, for bcrypt, its binaries)\n`,
  );
  console.log(
    table([
      ['function', 'index.mjs KB', 'asset KB', 'bcrypt', 'largest inputs (KB in output)'],
      ...bundles.map((bundle) => [
        bundle.handler,
        kb(bundle.codeBytes),
        kb(bundle.totalBytes),
        bundle.containsBcrypt ? 'yes' : 'no',
        bundle.largestInputs
          .slice(0, 3)
          .map((input) => `${input.input} ${kb(input.bytes)}`)
          .join(', '),
      ]),
    ]),
  );
  console.log(`\nCold start (median of ${settings.coldStarts} fresh Node processes; ms)\n`);
  console.log(
    table([
      ['function', 'first request', 'module load', 'first request', 'total'],
      ...coldStarts.map((item) => [
        item.handler,
        item.request,
        item.moduleLoadMs,
        item.firstRequestMs,
        item.totalMs,
      ]),
    ]),
  );
  console.log(
    `\nWarm latency (sequential requests, DynamoDB Local, s3rver; ms). Baseline (constant answer): handler p50 ${baseline.handlerMs.p50}, runner p50 ${baseline.runnerMs.p50}\n`,
  );
  console.log(
    table([
      [
        'endpoint',
        'n',
        'handler p50',
        'p99',
        'ddb p50',
        's3 p50',
        'overhead p50',
        'runner p50',
        'p99',
        '×floor handler',
        '×floor runner',
      ],
      ...latency.map((item) => [
        item.scenario,
        item.requests,
        item.handlerMs.p50,
        item.handlerMs.p99,
        item.dynamoRoundTripMs.p50,
        item.s3RoundTripMs.p50,
        item.overheadMs.p50,
        item.runnerMs.p50,
        item.runnerMs.p99,
        ratio(item.handlerMs.p50, baseline.handlerMs.p50),
        ratio(item.runnerMs.p50, baseline.runnerMs.p50),
      ]),
    ]),
  );
  console.log(
    `\nDynamoDB and S3 work, cost per million requests (${REGION} prices as of ${PRICES_AS_OF}; USD)\n`,
  );
  console.log(
    table([
      [
        'endpoint',
        'operations',
        'RRU',
        'WRU',
        'S3 requests',
        'memory MB',
        'billed ms',
        'Lambda',
        'HTTP API',
        'DynamoDB',
        'S3',
        'total',
      ],
      ...latency.map((item, index) => {
        const cost = costs[index] as (typeof costs)[number];
        return [
          item.scenario,
          item.dynamo.operations,
          item.dynamo.readUnitsPerRequest,
          item.dynamo.writeUnitsPerRequest,
          item.s3.operations,
          cost.memoryMb,
          cost.billedMs,
          cost.lambdaUsd.toFixed(3),
          cost.httpApiUsd.toFixed(3),
          cost.dynamoUsd.toFixed(3),
          cost.s3Usd.toFixed(3),
          cost.totalUsd.toFixed(3),
        ];
      }),
    ]),
  );
  console.log(`\n${throughputReport(throughput)}`);
  console.log(
    `\nLogin: bcrypt verify at cost ${bcrypt.cost}: ${bcrypt.verifyMs} ms (median of ${bcrypt.verifies}); ` +
      `predicted login at ${bcrypt.configuredMemoryMb} MB: ${bcrypt.predictedLoginMsAtConfigured} ms; ` +
      `memory for < ${LOGIN_TARGET_MS} ms: ${bcrypt.memoryForTargetMb ?? 'none (over budget even at a full vCPU)'} MB`,
  );
  console.log(
    `DynamoDB client: ${getItemCpuMs} ms of CPU per GetItem in this process (sequential, DynamoDB Local)`,
  );
  console.log(
    `Files grid of ${grid.images} images (headless Chromium): ${grid.thumbnails} thumbnail requests, ${grid.originals} originals`,
  );
  console.log(`\nDashboard (headless Chromium against the local runner)\n\n${webReport(web)}`);
  const loadAtEnd = loadavg()[0] as number;
  console.log(
    `\nBudgets (load average ${loadAtStart.toFixed(2)} at the start, ${loadAtEnd.toFixed(2)} at the end)\n`,
  );
  console.log(
    table([
      ['', 'budget', 'limit', 'measured'],
      ...budgets.map((item) => [item.ok ? 'ok' : 'BROKEN', item.budget, item.limit, item.measured]),
    ]),
  );

  const results = {
    measuredAt: new Date().toISOString(),
    mode: quick ? 'quick' : 'full',
    machine: {
      cpu: cpus()[0]?.model ?? 'unknown',
      cores: cpus().length,
      node: process.version,
      loadAverage: { start: round(loadAtStart), end: round(loadAtEnd) },
    },
    prices: { region: REGION, asOf: PRICES_AS_OF, ...PRICES },
    bundles: bundles.map(({ assetDir: _assetDir, logicalId: _logicalId, ...bundle }) => bundle),
    coldStarts,
    baseline,
    latency,
    costs,
    throughput,
    getItemCpuMs,
    bcrypt,
    grid,
    web,
    budgets,
    durationSeconds: round((performance.now() - started) / 1000, 1),
  };
  const outputDir = join(PROJECT_ROOT, 'bench');
  mkdirSync(outputDir, { recursive: true });
  const output = join(outputDir, quick ? 'results.quick.json' : 'results.json');
  writeFileSync(output, `${JSON.stringify(results, null, 2)}\n`);
  step(`wrote ${output}`);
  const broken = budgets.filter((item) => !item.ok);
  if (check && broken.length) {
    console.error(`\n${broken.length} budget(s) broken`);
    process.exitCode = 1;
  }
} finally {
  if (assemblyDir) rmSync(assemblyDir, { recursive: true, force: true });
  await stop();
}
