import type { BundleFigures } from './bundles.ts';
import type { CostFigures } from './cost.ts';
import type { GridFigures } from './grid.ts';
import type { LatencyFigures } from './latency.ts';
import { round } from './stats.ts';
import type { ThroughputFigures } from './throughput.ts';

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
  maxOverheadP50Ms: 1,
  costScenario: 'GET /api/user (token)',
  maxCostPerMillionUsd: 1.5,
  runnerConnections: 10,
  maxRunnerCpuMsPerRequest: 0.5,
  maxRunnerRssMb: 150,
  viewScenario: 'GET /view/{name} (image page)',
  maxViewReadRequests: 2,
  maxViewWriteRequests: 1,
  maxViewOverheadP50Ms: 5,
  gridImages: 15,
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

export function checkBudgets(figures: {
  bundles: readonly BundleFigures[];
  latency: readonly LatencyFigures[];
  costs: readonly CostFigures[];
  throughput: readonly ThroughputFigures[];
  grid?: GridFigures;
}): BudgetCheck[] {
  const checks: BudgetCheck[] = checkViewBudgets(figures.latency);
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
  checks.push({
    budget: `${BUDGETS.overheadScenario}: handler overhead p50 (DynamoDB round trip excluded)`,
    limit: `≤ ${BUDGETS.maxOverheadP50Ms} ms`,
    measured: `${overhead.overheadMs.p50} ms`,
    ok: overhead.overheadMs.p50 <= BUDGETS.maxOverheadP50Ms,
  });
  const cost = find(figures.costs, (item) => item.scenario === BUDGETS.costScenario, BUDGETS.costScenario);
  checks.push({
    budget: `${BUDGETS.costScenario}: cost per million at ${cost.memoryMb} MB`,
    limit: `≤ $${BUDGETS.maxCostPerMillionUsd}`,
    measured: `$${cost.totalUsd.toFixed(3)}`,
    ok: cost.totalUsd <= BUDGETS.maxCostPerMillionUsd,
  });
  const run = find(
    figures.throughput,
    (item) => item.handler === 'GET /api/user' && item.connections === BUDGETS.runnerConnections,
    `${BUDGETS.runnerConnections} connections`,
  );
  checks.push(
    {
      budget: `runner GET /api/user (token), ${run.connections} connections: CPU per request`,
      limit: `≤ ${BUDGETS.maxRunnerCpuMsPerRequest} ms`,
      measured: `${run.cpuMsPerRequest} ms`,
      ok: run.cpuMsPerRequest <= BUDGETS.maxRunnerCpuMsPerRequest,
    },
    {
      budget: `runner GET /api/user (token), ${run.connections} connections: peak RSS`,
      limit: `≤ ${BUDGETS.maxRunnerRssMb} MB`,
      measured: `${run.maxRssMb} MB`,
      ok: run.maxRssMb <= BUDGETS.maxRunnerRssMb,
    },
    {
      budget: `runner GET /api/user (token), ${run.connections} connections: errors`,
      limit: '0',
      measured: String(run.errors),
      ok: run.errors === 0,
    },
  );
  return checks;
}
