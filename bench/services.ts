import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureTable, localClient, startDynamoDbLocal } from '../infra/local/dynamodb.ts';
import { type S3Local, startS3Local } from '../infra/local/s3.ts';

/**
 * The dashboard's host as the stack's CloudFront distribution reports it to the functions
 * (`x-viewer-host`): the passkey scenarios send it, as every request through CloudFront carries it
 * (without the distribution's origin secret the functions drop it; the relying party is configured).
 */
export const VIEWER_HOST = 'files.bench.test';
export const VIEWER_ORIGIN = `https://${VIEWER_HOST}`;
/** What CloudFront adds to a passkey ceremony's request: the relying party of a cold-started bundle. */
export const VIEWER = { 'x-viewer-host': VIEWER_HOST };

/** The scenarios that check passwords, each with its own block of viewer addresses. */
const VIEWER_POOLS = ['view form', 'links', 'zipline'] as const;

/**
 * The address of a scenario's `index`th viewer, in 198.18.0.0/15 (the benchmarking range): one
 * address may check 30 passwords a window, and the password scenarios measure the check, not the
 * limit. Each pool has 128 /24 blocks of its own (32,000 viewers), so two scenarios never share one.
 */
export function viewerAddress(pool: (typeof VIEWER_POOLS)[number], index: number): string {
  const block = VIEWER_POOLS.indexOf(pool) * 128 + (Math.floor(index / 250) % 128);
  return `198.${18 + Math.floor(block / 256)}.${block % 256}.${index % 250}`;
}

/**
 * What every benchmark run measures against: DynamoDB Local in memory with the table, and s3rver over
 * a temporary directory with the bucket, their endpoints and the service's configuration in the
 * environment. Start it before anything imports the service's modules (they read it at import).
 */
export async function startBenchServices(step: (what: string) => void) {
  step('starting DynamoDB Local (in memory)');
  const dynamo = await startDynamoDbLocal();
  process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  process.env.TABLE_NAME = 'file-service-bench';
  process.env.SERVICE_KEYS = JSON.stringify([
    { id: 'bench', secret: 'a-benchmark-only-master-key-0123456789abcdef' },
  ]);
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  // The passkey ceremonies' relying party, configured as the stack configures every ceremony function
  // (in-process, and in the cold-started bundles, whose environment takes it from here).
  process.env.PASSKEY_ORIGIN = VIEWER_ORIGIN;
  // The latency runs send each password check and registration over HTTP too, all from 127.0.0.1:
  // the view page's form and the short links' two routes pass the 30 checks an address has a window,
  // the invite registrations its 5. Each is still counted (the same writes); only the refusal is out
  // of reach.
  process.env.FILE_PASSWORD_LIMIT_PER_ADDRESS ??= '100000';
  process.env.REGISTER_LIMIT_PER_ADDRESS ??= '10000';
  const client = localClient(dynamo.endpoint);
  await ensureTable(client, process.env.TABLE_NAME);
  client.destroy();
  step('starting the S3-compatible server (s3rver, temporary directory)');
  const s3Directory = mkdtempSync(join(tmpdir(), 'file-service-bench-s3-'));
  process.env.BUCKET_NAME = 'file-service-bench';
  const s3Local: S3Local = await startS3Local({
    directory: s3Directory,
    bucketName: process.env.BUCKET_NAME,
  });
  process.env.S3_ENDPOINT = s3Local.endpoint;
  return {
    s3Local,
    stop: async () => {
      await Promise.all([dynamo.stop(), s3Local.stop()]);
      rmSync(s3Directory, { recursive: true, force: true });
    },
  };
}
