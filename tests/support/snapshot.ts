import { type DynamoDBDocumentClient, paginateQuery, paginateScan } from '@aws-sdk/lib-dynamodb';
import { documents, tableName } from '#shared/db/client';
import { userKey } from '#shared/db/keys/users';

/** Every item of this test file's table, keyed by `pk|sk`, each as canonical JSON. */
export type TableSnapshot = Map<string, string>;

/** This test file's table, or another (a runner's) through its own client. */
export async function tableSnapshot(
  client: DynamoDBDocumentClient = documents,
  table = tableName,
): Promise<TableSnapshot> {
  const items = new Map<string, string>();
  for await (const page of paginateScan({ client }, { TableName: table, ConsistentRead: true })) {
    for (const item of page.Items ?? []) items.set(`${item.pk}|${item.sk}`, canonical(item));
  }
  return items;
}

/** Keys of the items added, removed or changed between two snapshots. */
export function changedKeys(before: TableSnapshot, after: TableSnapshot): string[] {
  const keys = new Set([...before.keys(), ...after.keys()]);
  return [...keys].filter((key) => before.get(key) !== after.get(key)).sort();
}

function canonical(value: unknown): string {
  return JSON.stringify(value, (_, inner) =>
    inner && typeof inner === 'object' && !Array.isArray(inner) && !(inner instanceof Uint8Array)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => a.localeCompare(b)))
      : inner instanceof Uint8Array
        ? Buffer.from(inner).toString('base64')
        : inner,
  );
}

/** Every item in a user's partition (`pk = USER#<id>`), read consistently. */
export async function partitionItems(userId: string): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  const pages = paginateQuery(
    { client: documents },
    {
      TableName: tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': userKey(userId).pk },
      ConsistentRead: true,
    },
  );
  for await (const page of pages) items.push(...(page.Items ?? []));
  return items;
}
