import { startDynamoDbLocal } from '../../infra/local/dynamodb.ts';

/** One in-memory DynamoDB Local for the whole run; each test file gets its own table (support/table.ts). */
export default async function globalSetup() {
  const dynamo = await startDynamoDbLocal();
  process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  (globalThis as { dynamoDbLocal?: typeof dynamo }).dynamoDbLocal = dynamo;
}
