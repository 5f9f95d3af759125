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
import { EXPIRY_INDEX, expiryIndexKey, FILE_ORDER_INDEXES } from '#shared/db/keys/files';
import { indexKeyAttributes } from '#shared/db/keys/partitions';
import { RETIRED_USER_INDEX_ATTRIBUTES, USERS_INDEX, userIndexKey } from '#shared/db/keys/users';
import { createTableInput } from '#shared/db/table';
import { DEFAULT_SORT_VALUES, SORT_INDEXES, sortKeyOf } from '#shared/files/record/indexing';
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
 * Gives every item in the file indexes (a file, a tag membership, a folder member) the entries an
 * earlier version left out in the orders whose field most files keep at its default (deletesAt,
 * views, favorite: files/record/indexing.ts `DEFAULT_SORT_VALUES`): that version wrote an entry
 * there only for a file off the default, so an absent entry means the default, encoded with the
 * item's file id under the item's own index partition (its by-id entry's). One scan, once per
 * upgrade; each write is conditional on the entries still being absent, so a file changed meanwhile
 * (a view, a favourite, an expiry) keeps what its change wrote, and on the item still existing.
 * Until it has run, the listing in these orders leaves out the files not written since. Returns how
 * many items it updated.
 */
export function backfillDefaultOrderEntries(client: DynamoDBClient, tableName: string): Promise<number> {
  const byId = indexKeyAttributes(FILE_ORDER_INDEXES.byId);
  const orders = Object.entries(DEFAULT_SORT_VALUES).map(([field, value]) => ({
    keys: indexKeyAttributes(SORT_INDEXES[field as keyof typeof DEFAULT_SORT_VALUES].index as string),
    value,
  }));
  const names = Object.fromEntries(orders.map(({ keys }, at) => [`#sk${at}`, keys.sk]));
  return backfill(
    client,
    tableName,
    {
      FilterExpression: `attribute_exists(#byId) AND (${orders.map((_, at) => `attribute_not_exists(#sk${at})`).join(' OR ')})`,
      ExpressionAttributeNames: { '#byId': byId.pk, '#byIdSk': byId.sk, ...names },
      ProjectionExpression: ['pk', 'sk', '#byId', '#byIdSk', ...Object.keys(names)].join(', '),
    },
    (item) => {
      const update = new UpdateBuilder();
      for (const { keys, value } of orders) {
        if (item[keys.sk] !== undefined) continue;
        update.set(keys.pk, item[byId.pk]).set(keys.sk, sortKeyOf(value, String(item[byId.sk])));
        update.when(`attribute_not_exists(${update.ref(keys.sk)})`);
      }
      return update.when('attribute_exists(pk)').build();
    },
  );
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
