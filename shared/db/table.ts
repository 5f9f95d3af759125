import { EXPIRY_INDEX, FILE_ORDER_INDEXES, SEARCH_FIELD_ATTRIBUTES } from '#shared/db/keys/files';
import { indexPartitionAttribute, indexSortAttribute } from '#shared/db/keys/partitions';
import { USERS_INDEX, USERS_INDEX_PARTITION, USERS_INDEX_SORT } from '#shared/db/keys/users';

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
  /** The table's stream: every change with the item before and after (the view totals' feed). */
  stream: 'NEW_AND_OLD_IMAGES';
}

/**
 * File indexes: partitioned by `FILES#<userId>`, sorted by an encoded value with the file id as
 * tiebreak. They project only the keys plus the two filter flags, so skipping to a deep page reads a
 * few dozen bytes per file; the page itself is then read from the base table.
 */
const FILE_FLAGS = ['favorite', 'media'];
const fileIndex = (name: string, projection: string[]): IndexDefinition => ({
  name,
  partitionKey: { name: indexPartitionAttribute(name), type: 'S' },
  sortKey: { name: indexSortAttribute(name), type: 'S' },
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
    // Files (see files/record/indexing.ts): byId orders by id (= createdAt) and carries the search fields.
    fileIndex(FILE_ORDER_INDEXES.byId, [...FILE_FLAGS, ...Object.values(SEARCH_FIELD_ATTRIBUTES)]),
    fileIndex(FILE_ORDER_INDEXES.byUpdatedAt, FILE_FLAGS),
    fileIndex(FILE_ORDER_INDEXES.byDeletesAt, FILE_FLAGS),
    fileIndex(FILE_ORDER_INDEXES.byName, FILE_FLAGS),
    fileIndex(FILE_ORDER_INDEXES.byOriginalName, FILE_FLAGS),
    fileIndex(FILE_ORDER_INDEXES.bySize, FILE_FLAGS),
    fileIndex(FILE_ORDER_INDEXES.byType, FILE_FLAGS),
    fileIndex(FILE_ORDER_INDEXES.byViews, FILE_FLAGS),
    fileIndex(FILE_ORDER_INDEXES.byFavorite, FILE_FLAGS),
    {
      // Files due to expire, across users (keys/files.ts `expiryIndexKey`): the sweep's only read.
      name: EXPIRY_INDEX,
      partitionKey: { name: indexPartitionAttribute(EXPIRY_INDEX), type: 'S' },
      sortKey: { name: indexSortAttribute(EXPIRY_INDEX), type: 'S' },
      projection: 'KEYS_ONLY',
    },
    {
      // Listing users (keys/users.ts `userIndexKey`): USERS#<shard>, <role rank>#<id>. Projects the listed
      // User's fields and nothing a login changes (sessions) or that is secret.
      name: USERS_INDEX,
      partitionKey: { name: USERS_INDEX_PARTITION, type: 'S' },
      sortKey: { name: USERS_INDEX_SORT, type: 'S' },
      projection: LISTED_USER_ATTRIBUTES,
    },
  ],
  timeToLiveAttribute: 'expiresAt',
  stream: 'NEW_AND_OLD_IMAGES',
};

/**
 * The CreateTable input for this definition (DynamoDB Local, tests). `stream: false` leaves the stream
 * out for a table nothing reads it from (tests/support/table.ts says why).
 */
export function createTableInput(tableName: string, options: { stream?: boolean } = {}) {
  const { partitionKey, sortKey, globalIndexes } = tableDefinition;
  const attributes = new Map<string, KeyAttribute>();
  for (const key of [partitionKey, sortKey, ...globalIndexes.flatMap((i) => [i.partitionKey, i.sortKey])]) {
    attributes.set(key.name, key);
  }
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST' as const,
    ...(options.stream === false
      ? {}
      : { StreamSpecification: { StreamEnabled: true, StreamViewType: tableDefinition.stream } }),
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
