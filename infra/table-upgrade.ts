import { DescribeTableCommand, type DynamoDBClient, UpdateTableCommand } from '@aws-sdk/client-dynamodb';
import {
  DynamoDBDocumentClient,
  paginateScan,
  type ScanCommandInput,
  UpdateCommand,
  type UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { unlessConditionFails } from '#shared/db/expressions/conditions';
import { UpdateBuilder } from '#shared/db/expressions/update';
import { EXPIRY_INDEX, expiryIndexKey } from '#shared/db/keys/files';
import { RETIRED_USER_INDEX_ATTRIBUTES, USERS_INDEX, userIndexKey } from '#shared/db/keys/users';
import { createTableInput } from '#shared/db/table';
import { SORT_INDEXES, sortKeyOf } from '#shared/files/record/indexing';
import { type Role, roleRank } from '#shared/users/model';

/**
 * Brings a table made by an earlier version up to the shared definition: indexes it lacks are added
 * (CloudFormation does this in AWS; DynamoDB Local tables in a kept `DATA_DIR` need it here), and
 * items written before an index existed get its keys. Each step is idempotent: a second run finds
 * nothing to do.
 */

/** Adds every index of the definition the table lacks, one at a time (DynamoDB's rule). */
export async function addMissingIndexes(client: DynamoDBClient, tableName: string): Promise<string[]> {
  const described = await client.send(new DescribeTableCommand({ TableName: tableName }));
  const present = new Set((described.Table?.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName));
  const wanted = createTableInput(tableName);
  const added: string[] = [];
  for (const index of wanted.GlobalSecondaryIndexes) {
    if (present.has(index.IndexName)) continue;
    const keyNames = new Set(index.KeySchema.map((key) => key.AttributeName));
    await client.send(
      new UpdateTableCommand({
        TableName: tableName,
        AttributeDefinitions: wanted.AttributeDefinitions.filter((a) => keyNames.has(a.AttributeName)),
        GlobalSecondaryIndexUpdates: [{ Create: index }],
      }),
    );
    await untilIndexActive(client, tableName, index.IndexName);
    added.push(index.IndexName);
  }
  return added;
}

/**
 * Deletes every index the table has and the definition no longer holds (the legacy user listing's),
 * one at a time, each once its deletion is done: what a deploy of this version does in AWS, for a DynamoDB Local table kept in `DATA_DIR`. Returns the names it deleted.
 */
export async function deleteRetiredIndexes(client: DynamoDBClient, tableName: string): Promise<string[]> {
  const described = await client.send(new DescribeTableCommand({ TableName: tableName }));
  const wanted = new Set(createTableInput(tableName).GlobalSecondaryIndexes.map((index) => index.IndexName));
  const retired = (described.Table?.GlobalSecondaryIndexes ?? [])
    .map((index) => index.IndexName as string)
    .filter((name) => !wanted.has(name));
  for (const name of retired) {
    await client.send(
      new UpdateTableCommand({
        TableName: tableName,
        GlobalSecondaryIndexUpdates: [{ Delete: { IndexName: name } }],
      }),
    );
    await untilIndexGone(client, tableName, name);
  }
  return retired;
}

async function untilIndexGone(client: DynamoDBClient, tableName: string, indexName: string): Promise<void> {
  const deadline = Date.now() + 5 * 60_000;
  for (;;) {
    const described = await client.send(new DescribeTableCommand({ TableName: tableName }));
    const present = described.Table?.GlobalSecondaryIndexes?.some((index) => index.IndexName === indexName);
    if (!present && described.Table?.TableStatus === 'ACTIVE') return;
    if (Date.now() > deadline) throw new Error(`index ${indexName} of ${tableName} is still being deleted`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Writes fail while a new index is being built: wait for it, as CloudFormation does. */
async function untilIndexActive(client: DynamoDBClient, tableName: string, indexName: string): Promise<void> {
  const deadline = Date.now() + 5 * 60_000;
  for (;;) {
    const described = await client.send(new DescribeTableCommand({ TableName: tableName }));
    const index = described.Table?.GlobalSecondaryIndexes?.find(
      (candidate) => candidate.IndexName === indexName,
    );
    if (index?.IndexStatus === 'ACTIVE' && described.Table?.TableStatus === 'ACTIVE') return;
    if (Date.now() > deadline)
      throw new Error(`index ${indexName} of ${tableName} is still ${index?.IndexStatus}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Gives every file with a `deletesAt` written before the expiry index existed its index keys, so the
 * sweep finds it. A scan, once per upgrade (never on a request path); each write is conditional on
 * the `deletesAt` read, so a file changed meanwhile keeps what its change wrote. Returns how many
 * files it updated.
 */
export function backfillExpiryIndex(client: DynamoDBClient, tableName: string): Promise<number> {
  const names = { '#pk': `${EXPIRY_INDEX}pk` };
  return backfill(
    client,
    tableName,
    {
      FilterExpression: 'entity = :file AND attribute_exists(deletesAt) AND attribute_not_exists(#pk)',
      ExpressionAttributeNames: { '#pk': names['#pk'] },
      ExpressionAttributeValues: { ':file': 'FILE' },
      ProjectionExpression: 'pk, sk, id, deletesAt',
    },
    (item) => {
      const update = new UpdateBuilder();
      // The index's two key attributes, as every write of a file sets them.
      for (const [attribute, value] of Object.entries(
        expiryIndexKey(String(item.id), String(item.deletesAt)),
      ))
        update.set(attribute, value);
      return update
        .when(`${update.ref('deletesAt')} = ${update.value(item.deletesAt)}`)
        .when(`attribute_not_exists(${update.ref(names['#pk'])})`)
        .build();
    },
  );
}

/**
 * Moves every user written before the sharded listing index into it: its keys there, and the keys
 * of the retired one-partition index (`RETIRED_USER_INDEX_ATTRIBUTES`) removed from the item. A
 * scan, once per upgrade; each write is conditional on the role read, so a user whose role changed
 * meanwhile keeps what its change wrote (the change sets these keys itself). Returns how many users
 * it moved.
 */
export function backfillUserShardIndex(client: DynamoDBClient, tableName: string): Promise<number> {
  const names = {
    '#role': 'role',
    '#pk': `${USERS_INDEX}pk`,
    '#legacyPk': RETIRED_USER_INDEX_ATTRIBUTES[0],
    '#legacySk': RETIRED_USER_INDEX_ATTRIBUTES[1],
  };
  return backfill(
    client,
    tableName,
    {
      FilterExpression: 'sk = :user AND begins_with(pk, :userPartition) AND attribute_not_exists(#pk)',
      ExpressionAttributeNames: { '#pk': names['#pk'], '#role': names['#role'] },
      ExpressionAttributeValues: { ':user': 'USER', ':userPartition': 'USER#' },
      ProjectionExpression: 'pk, sk, id, #role',
    },
    (item) => {
      const update = new UpdateBuilder();
      for (const [attribute, value] of Object.entries(
        userIndexKey(roleRank(item.role as Role), String(item.id)),
      ))
        update.set(attribute, value);
      update.remove(names['#legacyPk']).remove(names['#legacySk']);
      return update
        .when(`${update.ref('role')} = ${update.value(item.role)}`)
        .when(`attribute_not_exists(${update.ref(names['#pk'])})`)
        .build();
    },
  );
}

/**
 * Takes out of each sparse order index (files/record/indexing.ts `SORT_INDEXES`: deletesAt, views,
 * favorite) the entries that an earlier version wrote for files at the field's default (no expiry,
 * no views, not a favourite), which the listing now reads from the base table. One scan per index,
 * once per upgrade; each removal is conditional on the sort key read, so a file changed meanwhile (a
 * view, a new expiry) keeps what its change wrote. Until it has run every file is still listed once,
 * an unmoved one among the entries (its sort key is the default's). Returns how many entries it
 * removed.
 */
export async function backfillSparseOrderIndexes(client: DynamoDBClient, tableName: string): Promise<number> {
  let removed = 0;
  for (const { index, sparse } of Object.values(SORT_INDEXES)) {
    if (!index || !sparse) continue;
    const names = { '#pk': `${index}pk`, '#sk': `${index}sk` };
    removed += await backfill(
      client,
      tableName,
      {
        FilterExpression: 'entity = :file AND begins_with(#sk, :absent)',
        ExpressionAttributeNames: { '#sk': names['#sk'] },
        ExpressionAttributeValues: { ':file': 'FILE', ':absent': sortKeyOf(sparse.absent, '') },
        ProjectionExpression: 'pk, sk, #sk',
      },
      (item) => {
        const update = new UpdateBuilder().remove(names['#pk']).remove(names['#sk']);
        return update.when(`${update.ref(names['#sk'])} = ${update.value(item[names['#sk']])}`).build();
      },
    );
  }
  return removed;
}

/**
 * The one backfill mechanism: scans for the items `scan` selects and applies to each the update
 * `updateOf` gives, conditional as it says (a failed condition means the item was changed
 * meanwhile and keeps what its change wrote). Returns how many items it updated.
 */
async function backfill(
  client: DynamoDBClient,
  tableName: string,
  scan: Omit<ScanCommandInput, 'TableName'>,
  updateOf: (item: Record<string, unknown>) => Omit<UpdateCommandInput, 'TableName' | 'Key'>,
): Promise<number> {
  const documents = DynamoDBDocumentClient.from(client);
  let updated = 0;
  for await (const page of paginateScan({ client: documents }, { TableName: tableName, ...scan })) {
    for (const item of page.Items ?? []) {
      const written = await unlessConditionFails(
        documents.send(
          new UpdateCommand({ TableName: tableName, Key: { pk: item.pk, sk: item.sk }, ...updateOf(item) }),
        ),
      );
      if (written) updated++;
    }
  }
  return updated;
}
