import type { BundleFigures } from './bundles.ts';
import type { CostFigures } from './cost.ts';
import type { GridFigures } from './grid.ts';
import type { LatencyFigures } from './latency.ts';
import { median, round } from './stats.ts';
import type { ThroughputFigures, ThroughputReport } from './throughput.ts';

export interface BudgetCheck {
  budget: string;
  limit: string;
  measured: string;
  ok: boolean;
}

/** Decimal units, the stricter reading of "600 KB" and "1 MB". */
export const BUDGETS = {
  oneReadScenarios: ['GET /api/user (token)', 'GET /api/user (cookie)', 'GET /api/user/token'],
  maxReadUnits: 0.5,
  maxBundleBytesWithoutBcrypt: 600_000,
  maxBundleBytes: 1_000_000,
  overheadScenario: 'GET /api/user (token)',
  /** Handler overhead against the DynamoDB client's own CPU for one GetItem, measured in the same run. */
  maxOverheadPerGetItem: 2.5,
  costScenario: 'GET /api/user (token)',
  maxCostPerMillionUsd: 1.5,
  runnerConnections: 10,
  /**
   * `npm start`'s CPU per request against the plain node:http server doing the same GetItem. Since
   * both read through the item reader (0.3 ms less each), the runner's own work (event, handler,
   * token, log line: about 0.3 ms) is a larger share of it: 1.6–1.65× measured, where it was 1.2–1.5×.
   */
  maxRunnerCpuPerFloor: 2,
  /** DynamoDB Local's CPU per request under `npm start` against under that floor (the same one read). */
  maxDynamoCpuPerFloor: 1.25,
  /** `npm start`'s requests per second against that floor's. */
  minThroughputPerFloor: 0.7,
  /**
   * `POST /api/upload` of one small file through `npm start` against a node:http server doing only
   * the storage an upload needs (PutObject, the one transaction), 10 connections (issue 39). Measured
   * at load 50 in 6 s rounds (2026-11-26): runner 1.18–1.58×, DynamoDB Local 0.96–1.41× (the user's
   * GetItem and the thumbnail function's are the difference), uploads/s 0.61–1.08×.
   */
  maxUploadRunnerCpuPerFloor: 1.8,
  maxUploadDynamoCpuPerFloor: 1.5,
  minUploadThroughputPerFloor: 0.5,
  /**
   * The first page of the file list (200 files, 9 a page) through `npm start` against the same reads
   * through the same code behind a plain node:http server (bench/listing-floor-server.ts): what the
   * runner, the token check, the query's parsing, the files' presentation and the log line add.
   */
  maxListingCpuPerFloor: 1.6,
  /** DynamoDB Local's CPU per listing request under `npm start` against under that floor (the same reads). */
  maxListingDynamoCpuPerFloor: 1.25,
  minListingThroughputPerFloor: 0.7,
  /**
   * The runner holds s3rver, the dashboard's files and the schedules besides the API. Through the
   * first minute and the warm reads (150 MB measured); then over the whole session, uploads included:
   * under a sustained upload load V8 lets the old generation fill to about 170 MB between full
   * collections, which bring it back to 44-60 MB live (182-260 MB peak RSS measured, 2026-11-27;
   * docs/performance.md, "The runner's memory under uploads").
   */
  maxRunnerReadsRssMb: 200,
  maxRunnerRssMb: 280,
  /**
   * DynamoDB Local's JVM under the same load, uploads included: 296 MB with the serial collector and
   * the heap started at 32 MB (510-547 MB with the JVM's default start, 639 MB with G1).
   */
  maxDynamoRssMb: 450,
  viewScenario: 'GET /view/{name} (image page)',
  maxViewReadRequests: 2,
  maxViewWriteRequests: 1,
  maxViewOverheadP50Ms: 5,
  gridImages: 15,
  /** A short link's redirect (issue 34, docs/scale.md): one small read and one counter write. */
  redirectScenario: 'GET /go/{code} (redirect)',
  maxRedirectReadUnits: 0.5,
  maxRedirectWriteUnits: 1,
} as const;

function find<T>(items: readonly T[], matches: (item: T) => boolean, what: string): T {
  const item = items.find(matches);
  if (!item) throw new Error(`no measurement for ${what}`);
  return item;
}

/** The view page's budgets: its DynamoDB requests, and its handler's own work. */
export function checkViewBudgets(latency: readonly LatencyFigures[]): BudgetCheck[] {
  const view = find(latency, (item) => item.scenario === BUDGETS.viewScenario, BUDGETS.viewScenario);
  const viewWrites = round(view.dynamo.operationsPerRequest - view.dynamo.readOperationsPerRequest);
  return [
    {
      budget: `${BUDGETS.viewScenario}: DynamoDB requests`,
      limit: `≤ ${BUDGETS.maxViewReadRequests} reads + ${BUDGETS.maxViewWriteRequests} write (the view count)`,
      measured: `${view.dynamo.operations}: ${view.dynamo.readOperationsPerRequest} reads + ${viewWrites} writes`,
      ok:
        view.dynamo.readOperationsPerRequest <= BUDGETS.maxViewReadRequests &&
        viewWrites <= BUDGETS.maxViewWriteRequests,
    },
    {
      budget: `${BUDGETS.viewScenario}: handler's own work p50 (DynamoDB round trips excluded)`,
      limit: `≤ ${BUDGETS.maxViewOverheadP50Ms} ms`,
      measured: `${view.overheadMs.p50} ms`,
      ok: view.overheadMs.p50 <= BUDGETS.maxViewOverheadP50Ms,
    },
  ];
}

/** The redirect's DynamoDB work: what keeps a popular link within one key's limits. */
function checkRedirectBudget(latency: readonly LatencyFigures[]): BudgetCheck {
  const name = BUDGETS.redirectScenario;
  const { dynamo } = find(latency, (item) => item.scenario === name, name);
  return {
    budget: `${name}: DynamoDB work`,
    limit: `GetItem×1 + UpdateItem×1 on every request, ≤ ${BUDGETS.maxRedirectReadUnits} read and ${BUDGETS.maxRedirectWriteUnits} write units`,
    measured: `${dynamo.operations}: ${dynamo.readUnitsPerRequest} read, ${dynamo.writeUnitsPerRequest} write units`,
    ok:
      dynamo.operations === 'GetItem×1 + UpdateItem×1' &&
      dynamo.readUnitsPerRequest <= BUDGETS.maxRedirectReadUnits &&
      dynamo.writeUnitsPerRequest <= BUDGETS.maxRedirectWriteUnits,
  };
}

export function checkBudgets(figures: {
  bundles: readonly BundleFigures[];
  latency: readonly LatencyFigures[];
  costs: readonly CostFigures[];
  throughput: ThroughputReport;
  getItemCpuMs: number;
  grid?: GridFigures;
}): BudgetCheck[] {
  const checks: BudgetCheck[] = [...checkViewBudgets(figures.latency), checkRedirectBudget(figures.latency)];
  if (figures.grid) {
    checks.push({
      budget: `files grid of ${figures.grid.images} images in Chromium: what it loads`,
      limit: `≤ ${BUDGETS.gridImages} thumbnails, no originals`,
      measured: `${figures.grid.thumbnails} thumbnails, ${figures.grid.originals} originals`,
      ok:
        figures.grid.thumbnails > 0 &&
        figures.grid.thumbnails <= BUDGETS.gridImages &&
        figures.grid.originals === 0,
    });
  }
  for (const name of BUDGETS.oneReadScenarios) {
    const { dynamo } = find(figures.latency, (latency) => latency.scenario === name, name);
    checks.push({
      budget: `${name}: DynamoDB work`,
      limit: `exactly GetItem×1 on every request, ≤ ${BUDGETS.maxReadUnits} read units`,
      measured: `${dynamo.operations}, ${dynamo.readUnitsPerRequest} RRU, ${dynamo.writeUnitsPerRequest} WRU`,
      ok:
        dynamo.operations === 'GetItem×1' &&
        dynamo.readUnitsPerRequest <= BUDGETS.maxReadUnits &&
        dynamo.writeUnitsPerRequest === 0,
    });
  }
  for (const bundle of figures.bundles) {
    // Native-module functions (bcrypt, sharp's loader) get the larger budget.
    const limit =
      bundle.containsBcrypt || bundle.containsSharp
        ? BUDGETS.maxBundleBytes
        : BUDGETS.maxBundleBytesWithoutBcrypt;
    checks.push({
      budget: `bundle ${bundle.handler} (index.mjs)`,
      limit: `≤ ${limit / 1000} KB`,
      measured: `${(bundle.codeBytes / 1000).toFixed(1)} KB`,
      ok: bundle.codeBytes <= limit,
    });
  }
  const overhead = find(
    figures.latency,
    (latency) => latency.scenario === BUDGETS.overheadScenario,
    BUDGETS.overheadScenario,
  );
  const overheadRatio = round(overhead.overheadMs.p50 / figures.getItemCpuMs, 2);
  checks.push({
    budget: `${BUDGETS.overheadScenario}: handler overhead p50 (DynamoDB round trip excluded) / the client's CPU per GetItem`,
    limit: `≤ ${BUDGETS.maxOverheadPerGetItem}×`,
    measured: `${overheadRatio}× (${overhead.overheadMs.p50} / ${figures.getItemCpuMs} ms)`,
    ok: overheadRatio <= BUDGETS.maxOverheadPerGetItem,
  });
  const cost = find(figures.costs, (item) => item.scenario === BUDGETS.costScenario, BUDGETS.costScenario);
  checks.push({
    budget: `${BUDGETS.costScenario}: cost per million at ${cost.memoryMb} MB`,
    limit: `≤ $${BUDGETS.maxCostPerMillionUsd}`,
    measured: `$${cost.totalUsd.toFixed(3)}`,
    ok: cost.totalUsd <= BUDGETS.maxCostPerMillionUsd,
  });
  checks.push(...checkRunnerBudgets(figures.throughput), ...checkUploadBudgets(figures.throughput));
  return checks;
}

/** Medians of a server's warm rounds at the budget's connection count. */
function warmMedians(report: ThroughputReport, server: ThroughputFigures['server']) {
  const runs = report.runs.filter(
    (run) => run.server === server && run.phase === 'warm' && run.connections === BUDGETS.runnerConnections,
  );
  if (runs.length === 0)
    throw new Error(`no measurement for ${server} at ${BUDGETS.runnerConnections} connections`);
  const of = (field: 'serverCpuMsPerRequest' | 'dynamoCpuMsPerRequest' | 'requestsPerSecond') =>
    median(runs.map((run) => run[field]));
  return {
    serverCpuMsPerRequest: of('serverCpuMsPerRequest'),
    dynamoCpuMsPerRequest: of('dynamoCpuMsPerRequest'),
    requestsPerSecond: of('requestsPerSecond'),
  };
}

/**
 * `npm start` against its floor measured minutes apart in the same run, on the same warm DynamoDB
 * Local: ratios, because absolute times on these shared cores move twofold between runs.
 */
export function checkRunnerBudgets(report: ThroughputReport): BudgetCheck[] {
  const ours = warmMedians(report, 'npm start');
  const floor = warmMedians(report, 'node:http + GetItem');
  const label = `npm start, GET /api/user (token), ${BUDGETS.runnerConnections} connections, median of the rounds`;
  const ratio = (value: number, base: number) => round(value / base, 2);
  const cpu = ratio(ours.serverCpuMsPerRequest, floor.serverCpuMsPerRequest);
  const dynamo = ratio(ours.dynamoCpuMsPerRequest, floor.dynamoCpuMsPerRequest);
  const throughput = ratio(ours.requestsPerSecond, floor.requestsPerSecond);
  const errors = report.runs.reduce((sum, run) => sum + run.errors, 0);
  return [
    {
      budget: `${label}: runner CPU per request / node:http + GetItem's`,
      limit: `≤ ${BUDGETS.maxRunnerCpuPerFloor}×`,
      measured: `${cpu}× (${ours.serverCpuMsPerRequest} / ${floor.serverCpuMsPerRequest} ms)`,
      ok: cpu <= BUDGETS.maxRunnerCpuPerFloor,
    },
    {
      budget: `${label}: DynamoDB Local CPU per request / under node:http + GetItem`,
      limit: `≤ ${BUDGETS.maxDynamoCpuPerFloor}×`,
      measured: `${dynamo}× (${ours.dynamoCpuMsPerRequest} / ${floor.dynamoCpuMsPerRequest} ms)`,
      ok: dynamo <= BUDGETS.maxDynamoCpuPerFloor,
    },
    {
      budget: `${label}: requests/s / node:http + GetItem's`,
      limit: `≥ ${BUDGETS.minThroughputPerFloor}×`,
      measured: `${throughput}× (${ours.requestsPerSecond} / ${floor.requestsPerSecond})`,
      ok: throughput >= BUDGETS.minThroughputPerFloor,
    },
    ...checkListingBudgets(report),
    {
      budget: 'npm start: peak RSS of the runner before the first upload',
      limit: `≤ ${BUDGETS.maxRunnerReadsRssMb} MB`,
      measured: `${report.memory.runnerReadsPeakRssMb} MB`,
      ok: report.memory.runnerReadsPeakRssMb <= BUDGETS.maxRunnerReadsRssMb,
    },
    {
      budget: 'npm start: peak RSS of the runner, uploads included',
      limit: `≤ ${BUDGETS.maxRunnerRssMb} MB`,
      measured: `${report.memory.runnerPeakRssMb} MB`,
      ok: report.memory.runnerPeakRssMb <= BUDGETS.maxRunnerRssMb,
    },
    {
      budget: "npm start: peak RSS of DynamoDB Local's JVM",
      limit: `≤ ${BUDGETS.maxDynamoRssMb} MB`,
      measured: `${report.memory.dynamoPeakRssMb} MB`,
      ok: report.memory.dynamoPeakRssMb <= BUDGETS.maxDynamoRssMb,
    },
    {
      budget: 'npm start: a log line per request at the default level, and no errors',
      limit: '≥ 1 line per request, 0 errors',
      measured: `${report.loggedLinesPerRequest} lines per request, ${errors} errors`,
      ok: report.loggedLinesPerRequest >= 1 && errors === 0,
    },
  ];
}

/** `POST /api/upload` through `npm start` against its floor, in turn in the same run (issue 39). */
export function checkUploadBudgets(report: ThroughputReport): BudgetCheck[] {
  const ours = warmMedians(report, 'npm start, uploads');
  const floor = warmMedians(report, 'node:http + PutObject + TransactWriteItems');
  const label = `npm start, POST /api/upload (one small file), ${BUDGETS.runnerConnections} connections, median of the rounds`;
  const ratio = (value: number, base: number) => round(value / base, 2);
  const cpu = ratio(ours.serverCpuMsPerRequest, floor.serverCpuMsPerRequest);
  const dynamo = ratio(ours.dynamoCpuMsPerRequest, floor.dynamoCpuMsPerRequest);
  const throughput = ratio(ours.requestsPerSecond, floor.requestsPerSecond);
  const errors = report.runs
    .filter((run) => run.server === 'npm start, uploads')
    .reduce((sum, run) => sum + run.errors, 0);
  return [
    {
      budget: `${label}: runner CPU per upload / node:http + PutObject + TransactWriteItems's`,
      limit: `≤ ${BUDGETS.maxUploadRunnerCpuPerFloor}×`,
      measured: `${cpu}× (${ours.serverCpuMsPerRequest} / ${floor.serverCpuMsPerRequest} ms)`,
      ok: cpu <= BUDGETS.maxUploadRunnerCpuPerFloor,
    },
    {
      budget: `${label}: DynamoDB Local CPU per upload / under that floor`,
      limit: `≤ ${BUDGETS.maxUploadDynamoCpuPerFloor}×`,
      measured: `${dynamo}× (${ours.dynamoCpuMsPerRequest} / ${floor.dynamoCpuMsPerRequest} ms)`,
      ok: dynamo <= BUDGETS.maxUploadDynamoCpuPerFloor,
    },
    {
      budget: `${label}: uploads/s / that floor's, and no errors`,
      limit: `≥ ${BUDGETS.minUploadThroughputPerFloor}×, 0 errors`,
      measured: `${throughput}× (${ours.requestsPerSecond} / ${floor.requestsPerSecond}), ${errors} errors`,
      ok: throughput >= BUDGETS.minUploadThroughputPerFloor && errors === 0,
    },
  ];
}

/** The file list's first page through `npm start` against its floor, medians of the same rounds. */
function checkListingBudgets(report: ThroughputReport): BudgetCheck[] {
  const ours = warmMedians(report, 'npm start, file list');
  const floor = warmMedians(report, 'node:http + listFiles');
  const label = `npm start, GET /api/user/files?page=1&perpage=9 (200 files), ${BUDGETS.runnerConnections} connections, median of the rounds`;
  const ratio = (value: number, base: number) => round(value / base, 2);
  const cpu = ratio(ours.serverCpuMsPerRequest, floor.serverCpuMsPerRequest);
  const dynamo = ratio(ours.dynamoCpuMsPerRequest, floor.dynamoCpuMsPerRequest);
  const throughput = ratio(ours.requestsPerSecond, floor.requestsPerSecond);
  return [
    {
      budget: `${label}: runner CPU per request / node:http + listFiles's`,
      limit: `≤ ${BUDGETS.maxListingCpuPerFloor}×`,
      measured: `${cpu}× (${ours.serverCpuMsPerRequest} / ${floor.serverCpuMsPerRequest} ms)`,
      ok: cpu <= BUDGETS.maxListingCpuPerFloor,
    },
    {
      budget: `${label}: DynamoDB Local CPU per request / under node:http + listFiles`,
      limit: `≤ ${BUDGETS.maxListingDynamoCpuPerFloor}×`,
      measured: `${dynamo}× (${ours.dynamoCpuMsPerRequest} / ${floor.dynamoCpuMsPerRequest} ms)`,
      ok: dynamo <= BUDGETS.maxListingDynamoCpuPerFloor,
    },
    {
      budget: `${label}: requests/s / node:http + listFiles's`,
      limit: `≥ ${BUDGETS.minListingThroughputPerFloor}×`,
      measured: `${throughput}× (${ours.requestsPerSecond} / ${floor.requestsPerSecond})`,
      ok: throughput >= BUDGETS.minListingThroughputPerFloor,
    },
  ];
}
