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
  /** What the function wrote to stdout (its log lines and embedded metrics), line by line. */
  stdoutLines: string[];
}

/**
 * What this machine stands in for, by variable name: `sam local --env-vars` in code. As in SAM, only
 * a variable the function's template declares is filled in; one it does not declare stays unset.
 */
function localValues(): Record<string, string | undefined> {
  return {
    TABLE_NAME: process.env.TABLE_NAME,
    DYNAMODB_ENDPOINT: process.env.DYNAMODB_ENDPOINT,
    SERVICE_KEYS: process.env.SERVICE_KEYS,
    BUCKET_NAME: process.env.BUCKET_NAME,
    S3_ENDPOINT: process.env.S3_ENDPOINT,
    // The dashboard's origin as this process has it (empty: none), not the distribution's name,
    // and no setup code, as under `npm start` (docs/deploy.md, `sam local`'s env.json).
    PASSKEY_ORIGIN: process.env.PASSKEY_ORIGIN ?? '',
    PUBLIC_ORIGIN: process.env.PUBLIC_ORIGIN ?? '',
    SETUP_CODE_SECRET_ARN: process.env.SETUP_CODE_SECRET_ARN ?? '',
  };
}

/**
 * The environment Lambda gives a function whose template declares `declared`: the template's own
 * strings, this machine's stand-ins for what a deployment resolves (table, bucket, keys, endpoints),
 * and a reference nothing stands in for as its logical id (what SAM makes of an unresolved `Ref`),
 * plus what the Lambda runtime itself sets (region, PATH). Nothing else: a module that reads a
 * variable its function is not given fails here as it would in AWS.
 */
export function lambdaEnvironment(declared: Record<string, unknown>): Record<string, string> {
  const local = localValues();
  const environment: Record<string, string> = { AWS_REGION: 'local' };
  if (process.env.PATH) environment.PATH = process.env.PATH;
  for (const [name, value] of Object.entries(declared)) {
    const resolved = local[name] ?? (typeof value === 'string' ? value : referenceName(value));
    environment[name] = resolved;
  }
  return environment;
}

function referenceName(value: unknown): string {
  const ref = (value as { Ref?: unknown; 'Fn::GetAtt'?: unknown[] }) ?? {};
  if (typeof ref.Ref === 'string') return ref.Ref;
  if (Array.isArray(ref['Fn::GetAtt'])) return String(ref['Fn::GetAtt'][0]);
  return JSON.stringify(value);
}

/**
 * Runs a bundle's handler in a child Node process, as Lambda's runtime does, with exactly the
 * environment `lambdaEnvironment` derives from the function's template variables.
 */
export function runBundle(
  assetDir: string,
  declared: Record<string, unknown>,
  event: APIGatewayProxyEventV2,
): Promise<BundleRun> {
  const env = lambdaEnvironment(declared);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--no-warnings', runner, assetDir], {
      cwd: assetDir,
      env,
      stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let answer = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    (child.stdio[3] as NodeJS.ReadableStream).on('data', (chunk: Buffer) => {
      answer += chunk.toString();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`bundle in ${assetDir} exited with ${code}:\n${stderr}`));
      const lines = stdout.split('\n').filter((line) => line.trim() !== '');
      resolve({ ...(JSON.parse(answer) as Omit<BundleRun, 'stdoutLines'>), stdoutLines: lines });
    });
    child.stdin?.end(JSON.stringify(event));
  });
}

/** The bundle's answer to one event. */
export async function invokeBundle(
  assetDir: string,
  declared: Record<string, unknown>,
  event: APIGatewayProxyEventV2,
): Promise<HttpResult> {
  return (await runBundle(assetDir, declared, event)).result;
}
