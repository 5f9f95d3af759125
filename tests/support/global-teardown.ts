import type { DynamoDbLocal } from '../../infra/local/dynamodb.ts';

export default async function globalTeardown() {
  await (globalThis as { dynamoDbLocal?: DynamoDbLocal }).dynamoDbLocal?.stop();
}
