import { CreateTableCommand, DeleteTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createTableInput } from '#shared/db/table';
import { localClient } from '../../infra/local/dynamodb.ts';
import { uniqueName } from './client.ts';

/** An index an earlier version had and this one dropped: its name and key attributes (all strings). */
export interface RetiredIndex {
  name: string;
  partitionKey: string;
  sortKey: string;
}

/**
 * Runs `run` on a table of its own as an earlier version made it: the shared definition without
 * `indexName` (and its key attributes), plus the `retired` indexes it still had (projecting every
 * attribute), on this run's DynamoDB Local; deleted afterwards.
 */
export async function withTableMadeBefore(
  indexName: string,
  run: (client: DynamoDBClient, tableName: string) => Promise<void>,
  retired: RetiredIndex[] = [],
): Promise<void> {
  const client = localClient(process.env.DYNAMODB_ENDPOINT as string);
  const tableName = `legacy-${uniqueName('table')}`;
  const input = createTableInput(tableName, { stream: false });
  const index = input.GlobalSecondaryIndexes.find((candidate) => candidate.IndexName === indexName);
  const keyNames = new Set(index?.KeySchema.map((key) => key.AttributeName));
  await client.send(
    new CreateTableCommand({
      ...input,
      AttributeDefinitions: [
        ...input.AttributeDefinitions.filter((a) => !keyNames.has(a.AttributeName)),
        ...retired.flatMap((old) =>
          [old.partitionKey, old.sortKey].map((name) => ({
            AttributeName: name,
            AttributeType: 'S' as const,
          })),
        ),
      ],
      GlobalSecondaryIndexes: [
        ...input.GlobalSecondaryIndexes.filter((candidate) => candidate !== index),
        ...retired.map((old) => ({
          IndexName: old.name,
          KeySchema: [
            { AttributeName: old.partitionKey, KeyType: 'HASH' as const },
            { AttributeName: old.sortKey, KeyType: 'RANGE' as const },
          ],
          Projection: { ProjectionType: 'ALL' as const },
        })),
      ],
    }),
  );
  try {
    await run(client, tableName);
  } finally {
    await client.send(new DeleteTableCommand({ TableName: tableName }));
    client.destroy();
  }
}
