import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { routeEvent } from '../../infra/local/dispatch.ts';
import type { BundleFigures } from './bundles.ts';
import type { Scenario } from './scenarios.ts';
import { median, round } from './stats.ts';

const child = fileURLToPath(new URL('./cold-start.mjs', import.meta.url));

interface OneColdStart {
  moduleLoadMs: number;
  firstRequestMs: number;
  statusCode: number;
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

/**
 * The environment Lambda gives the function (NODE_OPTIONS as the stack sets it), aimed at the local
 * table and the local S3 server (the stack sets BUCKET_NAME on the functions that use the bucket).
 */
function runOnce(assetDir: string, event: APIGatewayProxyEventV2): Promise<OneColdStart> {
  return new Promise((resolve, reject) => {
    const process_ = spawn(process.execPath, ['--enable-source-maps', '--no-warnings', child, assetDir], {
      cwd: assetDir,
      env: {
        PATH: process.env.PATH,
        AWS_REGION: 'local',
        TABLE_NAME: process.env.TABLE_NAME,
        DYNAMODB_ENDPOINT: process.env.DYNAMODB_ENDPOINT,
        SERVICE_KEYS: process.env.SERVICE_KEYS,
        BUCKET_NAME: process.env.BUCKET_NAME,
        S3_ENDPOINT: process.env.S3_ENDPOINT,
      },
    });
    let stdout = '';
    let stderr = '';
    process_.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    process_.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    process_.on('error', reject);
    process_.on('close', (code) =>
      code === 0
        ? resolve(JSON.parse(stdout) as OneColdStart)
        : reject(new Error(`cold start of ${assetDir} exited with ${code}:\n${stderr}`)),
    );
    process_.stdin.end(JSON.stringify(event));
  });
}

/** Median cold start of each bundle over `runs` fresh processes, each serving its route's request. */
export async function measureColdStarts(
  bundles: readonly BundleFigures[],
  scenarios: readonly Scenario[],
  runs: number,
): Promise<ColdStartFigures[]> {
  const figures: ColdStartFigures[] = [];
  for (const bundle of bundles) {
    const scenario = scenarios.find((candidate) => candidate.handler === bundle.handler);
    if (!scenario) throw new Error(`no benchmark request for ${bundle.handler}`);
    const samples: OneColdStart[] = [];
    for (let run = 0; run < runs; run++) {
      const routed = routeEvent(await scenario.event(run));
      samples.push(await runOnce(bundle.assetDir, routed.event));
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
