import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeleteBucketCorsCommand, PutBucketCorsCommand, S3Client } from '@aws-sdk/client-s3';
import { type S3Local, startS3Local } from '../../infra/local/s3.ts';

/**
 * The runner's s3rver keeps its bucket's CORS configuration in memory (infra/local/s3-config-cache.ts)
 * instead of reading it from disk on every request: what the dashboard's presigned PUTs rely on must
 * still hold, and a configuration changed through S3 must be what the next request gets.
 */
const BUCKET = 'cors-cache';
let directory: string;
let s3: S3Local;
let client: S3Client;

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 's3-config-cache-'));
  s3 = await startS3Local({ directory, bucketName: BUCKET });
  client = new S3Client({
    endpoint: s3.endpoint,
    forcePathStyle: true,
    region: 'us-east-1',
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
});

afterAll(async () => {
  client.destroy();
  await s3.stop();
  rmSync(directory, { recursive: true, force: true });
});

const preflight = (origin: string, method: string) =>
  fetch(`${s3.endpoint}/${BUCKET}/files/u/a.txt`, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': method },
  });

test('the bucket answers preflights by its configuration, read once and changed through S3 at once', async () => {
  for (let request = 0; request < 3; request++) {
    const allowed = await preflight('http://localhost:3000', 'PUT');
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('*');
  }

  await client.send(
    new PutBucketCorsCommand({
      Bucket: BUCKET,
      CORSConfiguration: {
        CORSRules: [{ AllowedOrigins: ['https://files.example'], AllowedMethods: ['GET'] }],
      },
    }),
  );
  expect((await preflight('http://localhost:3000', 'PUT')).status).toBe(403);
  expect((await preflight('https://files.example', 'GET')).status).toBe(200);

  await client.send(new DeleteBucketCorsCommand({ Bucket: BUCKET }));
  expect((await preflight('https://files.example', 'GET')).status).toBe(403);
});
