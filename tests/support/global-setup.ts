import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDynamoDbLocal } from '../../infra/local/dynamodb.ts';
import { startS3Local } from '../../infra/local/s3.ts';
import { ensureWebBuild } from '../../infra/local/web-build.ts';

/**
 * One in-memory DynamoDB Local for the whole run (each test file gets its own table:
 * support/table.ts) and one S3-compatible server over a temporary directory with the files bucket
 * (test files keep apart by their own users, whose objects live under their own prefixes), after
 * building the dashboard if its build is stale.
 */
export default async function globalSetup() {
  // Once, before test files start runners side by side (each would otherwise check and build).
  ensureWebBuild();
  const dynamo = await startDynamoDbLocal();
  process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  const s3Directory = mkdtempSync(join(tmpdir(), 'file-service-s3-'));
  process.env.BUCKET_NAME = 'test-files';
  const s3 = await startS3Local({ directory: s3Directory, bucketName: process.env.BUCKET_NAME });
  process.env.S3_ENDPOINT = s3.endpoint;
  Object.assign(globalThis, { dynamoDbLocal: dynamo, s3Local: { ...s3, directory: s3Directory } });
}
