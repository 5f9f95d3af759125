import { rmSync } from 'node:fs';
import type { DynamoDbLocal } from '../../infra/local/dynamodb.ts';
import type { S3Local } from '../../infra/local/s3.ts';

export default async function globalTeardown() {
  const { dynamoDbLocal, s3Local } = globalThis as {
    dynamoDbLocal?: DynamoDbLocal;
    s3Local?: S3Local & { directory: string };
  };
  await Promise.all([dynamoDbLocal?.stop(), s3Local?.stop()]);
  if (s3Local) rmSync(s3Local.directory, { recursive: true, force: true });
}
