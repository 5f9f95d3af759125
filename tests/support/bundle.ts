import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { HttpResult } from '#shared/http/response';

const runner = fileURLToPath(new URL('./run-bundle.mjs', import.meta.url));

/** One invocation of a bundle in a fresh process: its answer and the two halves of the cold start. */
export interface BundleRun {
  result: HttpResult;
  /** Importing index.mjs: the part of Lambda's Init phase the bundle controls. */
  moduleLoadMs: number;
  /** The first `handler(event)` call. */
  firstRequestMs: number;
}

/**
 * Runs a bundle's handler in a child Node process, as Lambda's runtime does, with only the
 * environment Lambda would give it (NODE_OPTIONS as the stack sets it) pointed at the local table
 * and S3 server of this process; `extraEnv` adds to it (e.g. a test's low bcrypt cost).
 */
export function runBundle(
  assetDir: string,
  event: APIGatewayProxyEventV2,
  extraEnv: Record<string, string | undefined> = {},
): Promise<BundleRun> {
  const env = Object.fromEntries(
    Object.entries({
      PATH: process.env.PATH,
      AWS_REGION: 'local',
      TABLE_NAME: process.env.TABLE_NAME,
      DYNAMODB_ENDPOINT: process.env.DYNAMODB_ENDPOINT,
      SERVICE_KEYS: process.env.SERVICE_KEYS,
      BUCKET_NAME: process.env.BUCKET_NAME,
      S3_ENDPOINT: process.env.S3_ENDPOINT,
      ...extraEnv,
    }).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--enable-source-maps', '--no-warnings', runner, assetDir], {
      cwd: assetDir,
      env,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`bundle in ${assetDir} exited with ${code}:\n${stderr}`));
      resolve(JSON.parse(stdout) as BundleRun);
    });
    child.stdin.end(JSON.stringify(event));
  });
}

/** The bundle's answer to one event (tests run bcrypt at their low cost). */
export async function invokeBundle(assetDir: string, event: APIGatewayProxyEventV2): Promise<HttpResult> {
  return (await runBundle(assetDir, event, { BCRYPT_COST: process.env.BCRYPT_COST })).result;
}
