import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { routeEvent } from '../infra/local/dispatch.ts';
import { runBundle } from '../tests/support/bundle.ts';
import type { BundleFigures } from './bundles.ts';
import type { Scenario } from './scenario.ts';
import { median, round } from './stats.ts';

interface OneColdStart {
  moduleLoadMs: number;
  firstRequestMs: number;
  statusCode: number;
}

/**
 * A function S3 or a schedule starts (no route): its event as AWS sends it, and whether an answer is
 * the expected one (such a handler answers no HTTP status; a good answer counts as 200).
 */
export interface EventScenario {
  name: string;
  handler: string;
  event(index: number): Promise<unknown>;
  succeeded(result: unknown): boolean;
}

export interface ColdStartFigures {
  handler: string;
  request: string;
  runs: number;
  status: number;
  moduleLoadMs: number;
  firstRequestMs: number;
  totalMs: number;
}

async function runOnce(
  bundle: BundleFigures,
  event: APIGatewayProxyEventV2,
  succeeded?: (result: unknown) => boolean,
): Promise<OneColdStart> {
  const run = await runBundle(bundle.assetDir, bundle.environment, event);
  return {
    moduleLoadMs: run.moduleLoadMs,
    firstRequestMs: run.firstRequestMs,
    statusCode: succeeded ? (succeeded(run.result) ? 200 : 500) : run.result.statusCode,
  };
}

/** Median cold start of each bundle over `runs` fresh processes, each serving its route's request. */
export async function measureColdStarts(
  bundles: readonly BundleFigures[],
  scenarios: readonly Scenario[],
  runs: number,
  objectEvents: readonly EventScenario[] = [],
): Promise<ColdStartFigures[]> {
  const figures: ColdStartFigures[] = [];
  for (const bundle of bundles) {
    const direct = objectEvents.find((candidate) => candidate.handler === bundle.handler);
    const routed = scenarios.find((candidate) => candidate.handler === bundle.handler);
    const scenario = direct ? { name: direct.name, status: 200 } : routed;
    if (!scenario) throw new Error(`no benchmark request for ${bundle.handler}`);
    const samples: OneColdStart[] = [];
    for (let run = 0; run < runs; run++) {
      samples.push(
        direct
          ? await runOnce(bundle, (await direct.event(run)) as APIGatewayProxyEventV2, direct.succeeded)
          : await runOnce(bundle, routeEvent(await (routed as Scenario).event(run)).event),
      );
    }
    const statuses = new Set(samples.map((sample) => sample.statusCode));
    if (statuses.size !== 1 || !statuses.has(scenario.status))
      throw new Error(
        `${scenario.name} answered ${[...statuses]} at cold start, expected ${scenario.status}`,
      );
    const moduleLoad = samples.map((sample) => sample.moduleLoadMs);
    const firstRequest = samples.map((sample) => sample.firstRequestMs);
    figures.push({
      handler: bundle.handler,
      request: scenario.name,
      runs,
      status: scenario.status,
      moduleLoadMs: round(median(moduleLoad), 1),
      firstRequestMs: round(median(firstRequest), 1),
      totalMs: round(median(samples.map((sample) => sample.moduleLoadMs + sample.firstRequestMs)), 1),
    });
  }
  return figures;
}
