import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { documents, dynamodbClients, getItem, itemReads, tableName } from '#shared/db/client';

// The user item is read through its own client (see shared/db/client.ts); everything else goes
// through the document client. Both must see the same item.
describe('getItem', () => {
  const key = { pk: 'TEST#item-reads', sk: 'ITEM' };
  const item = {
    ...key,
    text: 'ünïcode ✓',
    count: 42,
    ratio: 0.5,
    flag: false,
    nothing: null,
    list: [1, 'two', { three: 3 }],
    map: { nested: { deep: 'yes' }, empty: {} },
    tags: new Set(['a', 'b']),
    bytes: Uint8Array.from([0, 1, 255]),
  };

  beforeAll(() => documents.send(new PutCommand({ TableName: tableName, Item: item })));

  test('returns the item as the document client does', async () => {
    const viaDocuments = await documents.send(
      new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }),
    );
    expect(viaDocuments.Item).toEqual(item);
    expect(await getItem(key, { consistent: true })).toEqual(viaDocuments.Item);
  });

  test('returns undefined for a key with no item', async () => {
    expect(await getItem({ pk: 'TEST#item-reads', sk: 'NONE' }, { consistent: true })).toBeUndefined();
  });

  test('concurrent reads of different items each get their own answer (the cached handler is shared)', async () => {
    const keys = Array.from({ length: 20 }, (_, index) => ({
      pk: 'TEST#item-reads',
      sk: `PARALLEL#${index}`,
    }));
    await Promise.all(
      keys.map((each, index) =>
        documents.send(new PutCommand({ TableName: tableName, Item: { ...each, index } })),
      ),
    );
    const read = await Promise.all(keys.map((each) => getItem(each, { consistent: true })));
    expect(read.map((found) => found?.index)).toEqual(keys.map((_, index) => index));
  });
});

describe('the DynamoDB clients', () => {
  test('send no logger or user-agent middleware, and the item reader resolves its stack once', () => {
    for (const client of dynamodbClients) {
      const names = client.middlewareStack.identify().join('\n');
      expect(names).not.toContain('loggerMiddleware');
      expect(names).not.toContain('getUserAgentMiddleware');
    }
    expect(itemReads.config.cacheMiddleware).toBe(true);
  });
});
