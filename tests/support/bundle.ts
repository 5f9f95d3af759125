import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { HttpResult } from '#shared/http/response';

const runner = fileURLToPath(new URL('./run-bundle.mjs', import.meta.url));

/**
 * Runs a bundle's handler in a child Node process, with only the environment Lambda would give it
 * (NODE_OPTIONS as the stack sets it) pointed at this test file's DynamoDB Local table.
 */
export function invokeBundle(assetDir: string, event: APIGatewayProxyEventV2): Promise<HttpResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--enable-source-maps', '--no-warnings', runner, assetDir], {
      cwd: assetDir,
      env: {
        PATH: process.env.PATH,
        AWS_REGION: 'local',
        TABLE_NAME: process.env.TABLE_NAME,
        DYNAMODB_ENDPOINT: process.env.DYNAMODB_ENDPOINT,
        SERVICE_KEYS: process.env.SERVICE_KEYS,
        BCRYPT_COST: process.env.BCRYPT_COST,
      },
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
      resolve(JSON.parse(stdout) as HttpResult);
    });
    child.stdin.end(JSON.stringify(event));
  });
}
