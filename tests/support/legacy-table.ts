import { CreateTableCommand, DeleteTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createTableInput } from '#shared/db/table';
import { localClient } from '../../infra/local/dynamodb.ts';
import { uniqueName } from './client.ts';

/**
 * Runs `run` on a table of its own as an earlier version made it: the shared definition without
 * `indexName` (and its key attributes), on this run's DynamoDB Local; deleted afterwards.
 */
export async function withTableMadeBefore(
  indexName: string,
  run: (client: DynamoDBClient, tableName: string) => Promise<void>,
): Promise<void> {
  const client = localClient(process.env.DYNAMODB_ENDPOINT as string);
  const tableName = `legacy-${uniqueName('table')}`;
  const input = createTableInput(tableName);
  const index = input.GlobalSecondaryIndexes.find((candidate) => candidate.IndexName === indexName);
  const keyNames = new Set(index?.KeySchema.map((key) => key.AttributeName));
  await client.send(
    new CreateTableCommand({
      ...input,
      AttributeDefinitions: input.AttributeDefinitions.filter((a) => !keyNames.has(a.AttributeName)),
      GlobalSecondaryIndexes: input.GlobalSecondaryIndexes.filter((candidate) => candidate !== index),
    }),
  );
  try {
    await run(client, tableName);
  } finally {
    await client.send(new DeleteTableCommand({ TableName: tableName }));
    client.destroy();
  }
}
