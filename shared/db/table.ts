/**
 * The one definition of the service's DynamoDB table. The CDK stack and DynamoDB Local (runner and
 * tests) both build the table from this object, so keys and indexes cannot drift apart.
 */
export interface KeyAttribute {
  name: string;
  type: 'S' | 'N' | 'B';
}

export interface IndexDefinition {
  name: string;
  partitionKey: KeyAttribute;
  sortKey: KeyAttribute;
  /** Attributes projected besides the keys; `KEYS_ONLY` when empty. */
  projection: 'ALL' | 'KEYS_ONLY' | string[];
}

export interface TableDefinition {
  partitionKey: KeyAttribute;
  sortKey: KeyAttribute;
  globalIndexes: IndexDefinition[];
  timeToLiveAttribute: string;
}

/**
 * File indexes: partitioned by `FILES#<userId>`, sorted by an encoded value with the file id as
 * tiebreak. They project only the keys plus the two filter flags, so skipping to a deep page reads a
 * few dozen bytes per file; the page itself is then read from the base table.
 */
const FILE_FLAGS = ['favorite', 'media'];
const fileIndex = (name: string, projection: string[]): IndexDefinition => ({
  name,
  partitionKey: { name: `${name}pk`, type: 'S' },
  sortKey: { name: `${name}sk`, type: 'S' },
  projection,
});

/** What `GET /api/users` returns of each user (users/model.ts `toUserResource`, minus sessions). */
export const LISTED_USER_ATTRIBUTES = [
  'id',
  'username',
  'role',
  'view',
  'quota',
  'oauthProviders',
  'passkeys',
  'createdAt',
  'updatedAt',
];

export const tableDefinition: TableDefinition = {
  partitionKey: { name: 'pk', type: 'S' },
  sortKey: { name: 'sk', type: 'S' },
  globalIndexes: [
    {
      // The user listing before gsi12: one USERS partition, everything projected. Kept for this
      // version only (functions of the previous one query it until a deploy replaces them, and one
      // deploy may add or remove one index, not both); nothing writes its keys now (docs/scale.md).
      name: 'gsi1',
      partitionKey: { name: 'gsi1pk', type: 'S' },
      sortKey: { name: 'gsi1sk', type: 'S' },
      projection: 'ALL',
    },
    // Files (see files/indexing.ts): gsi2 orders by id (= createdAt) and carries the search fields.
    fileIndex('gsi2', [...FILE_FLAGS, 'gsi5sk', 'gsi6sk', 'gsi8sk']),
    fileIndex('gsi3', FILE_FLAGS), // updatedAt
    fileIndex('gsi4', FILE_FLAGS), // deletesAt
    fileIndex('gsi5', FILE_FLAGS), // name
    fileIndex('gsi6', FILE_FLAGS), // originalName
    fileIndex('gsi7', FILE_FLAGS), // size
    fileIndex('gsi8', FILE_FLAGS), // type
    fileIndex('gsi9', FILE_FLAGS), // views
    fileIndex('gsi10', FILE_FLAGS), // favorite
    {
      // Files due to expire, across users (db/keys.ts `expiryIndexKey`): the sweep's only read.
      name: 'gsi11',
      partitionKey: { name: 'gsi11pk', type: 'S' },
      sortKey: { name: 'gsi11sk', type: 'S' },
      projection: 'KEYS_ONLY',
    },
    {
      // Listing users (db/keys.ts `userIndexKey`): USERS#<shard>, <role rank>#<id>. Projects the
      // listed User's fields and nothing a login changes (sessions) or that is secret.
      name: 'gsi12',
      partitionKey: { name: 'gsi12pk', type: 'S' },
      sortKey: { name: 'gsi12sk', type: 'S' },
      projection: LISTED_USER_ATTRIBUTES,
    },
  ],
  timeToLiveAttribute: 'expiresAt',
};

/** The CreateTable input for this definition (DynamoDB Local, tests). */
export function createTableInput(tableName: string) {
  const { partitionKey, sortKey, globalIndexes } = tableDefinition;
  const attributes = new Map<string, KeyAttribute>();
  for (const key of [partitionKey, sortKey, ...globalIndexes.flatMap((i) => [i.partitionKey, i.sortKey])]) {
    attributes.set(key.name, key);
  }
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST' as const,
    AttributeDefinitions: [...attributes.values()].map((a) => ({
      AttributeName: a.name,
      AttributeType: a.type,
    })),
    KeySchema: [
      { AttributeName: partitionKey.name, KeyType: 'HASH' as const },
      { AttributeName: sortKey.name, KeyType: 'RANGE' as const },
    ],
    GlobalSecondaryIndexes: globalIndexes.map((index) => ({
      IndexName: index.name,
      KeySchema: [
        { AttributeName: index.partitionKey.name, KeyType: 'HASH' as const },
        { AttributeName: index.sortKey.name, KeyType: 'RANGE' as const },
      ],
      Projection:
        index.projection === 'ALL' || index.projection === 'KEYS_ONLY'
          ? { ProjectionType: index.projection }
          : { ProjectionType: 'INCLUDE' as const, NonKeyAttributes: index.projection },
    })),
  };
}
