import { connect, createServer, type Socket } from 'node:net';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { documents, dynamodb, getItem, itemReader, tableName } from '#shared/db/client';
import { createItemReader, DynamoDbError } from '#shared/db/item-reader';
import { localClient } from '../../infra/local/dynamodb.ts';

// The user item is read through the item reader (shared/db/item-reader.ts); everything else goes
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

  test('concurrent reads of different items each get their own answer (one pool of connections)', async () => {
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

const endpoint = process.env.DYNAMODB_ENDPOINT as string;
const userKey = { pk: { S: 'TEST#item-reads' }, sk: { S: 'ITEM' } };

/**
 * A TCP relay to DynamoDB Local that resets the first `resets` connections once they have sent a
 * request, as a server closing a kept-alive connection under a client does.
 */
async function resettingRelay(resets: number) {
  let connections = 0;
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    if (++connections <= resets) {
      socket.once('data', () => socket.resetAndDestroy());
      return;
    }
    const target = new URL(endpoint);
    const upstream = connect(Number(target.port), target.hostname);
    sockets.add(upstream);
    socket.pipe(upstream).pipe(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    connections: () => connections,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('the item reader', () => {
  test('an error DynamoDB answers keeps its name and status, and is not retried', async () => {
    const reader = createItemReader(dynamodb);
    let attempts = 0;
    reader.intercept((next) => (input) => {
      attempts++;
      return next(input);
    });
    const missing = reader.read({ TableName: 'no-such-table', Key: userKey });
    await expect(missing).rejects.toBeInstanceOf(DynamoDbError);
    await expect(missing).rejects.toMatchObject({
      name: 'ResourceNotFoundException',
      $metadata: { httpStatusCode: 400 },
    });
    expect(attempts).toBe(1);
  });

  test('a connection reset under a request is retried on a new one', async () => {
    const relay = await resettingRelay(2);
    try {
      const reader = createItemReader(localClient(relay.url));
      const read = await reader.read({ TableName: tableName, Key: userKey, ConsistentRead: true });
      expect(read.Item?.text).toEqual({ S: 'ünïcode ✓' });
      expect(relay.connections()).toBe(3);
    } finally {
      await relay.close();
    }
  });

  test('resets on every attempt give up after as many attempts as the SDK client makes, with the network error', async () => {
    const relay = await resettingRelay(Number.POSITIVE_INFINITY);
    try {
      const reader = createItemReader(localClient(relay.url));
      await expect(reader.read({ TableName: tableName, Key: userKey })).rejects.toMatchObject({
        code: 'ECONNRESET',
      });
      expect(relay.connections()).toBe(await dynamodb.config.maxAttempts());
    } finally {
      await relay.close();
    }
  });

  test('a client whose endpoint comes from AWS_ENDPOINT_URL_DYNAMODB: the reader goes there too', async () => {
    const relay = await resettingRelay(0);
    process.env.AWS_ENDPOINT_URL_DYNAMODB = relay.url;
    try {
      const client = new DynamoDBClient({
        region: 'local',
        credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      });
      const read = await createItemReader(client).read({ TableName: tableName, Key: userKey });
      expect(read.Item?.count).toEqual({ N: '42' });
      expect(relay.connections()).toBe(1);
    } finally {
      delete process.env.AWS_ENDPOINT_URL_DYNAMODB;
      await relay.close();
    }
  });

  test('an interceptor added after reads have been served sees the next one', async () => {
    await getItem({ pk: 'TEST#item-reads', sk: 'ITEM' });
    const seen: unknown[] = [];
    itemReader.intercept((next) => (input) => {
      seen.push(input.Key);
      return next(input);
    });
    await getItem({ pk: 'TEST#item-reads', sk: 'ITEM' });
    expect(seen).toEqual([userKey]);
  });
});

describe('the DynamoDB client', () => {
  test('sends no logger or user-agent middleware', () => {
    const names = dynamodb.middlewareStack.identify().join('\n');
    expect(names).not.toContain('loggerMiddleware');
    expect(names).not.toContain('getUserAgentMiddleware');
  });
});
