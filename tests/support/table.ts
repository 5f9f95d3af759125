import { randomBytes } from 'node:crypto';
import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { ensureTable, localClient } from '../../infra/local/dynamodb.ts';

/**
 * Runs before each test file: a fresh table of the shared definition, test keys, and bcrypt at its
 * lowest cost so password tests stay quick (the configured cost is covered by the benchmark).
 */
const tableName = `test-${randomBytes(6).toString('hex')}`;
process.env.TABLE_NAME = tableName;
process.env.SERVICE_KEYS = JSON.stringify([
  { id: 'test', secret: 'a-test-only-master-key-of-enough-length-0123456789' },
]);
process.env.BCRYPT_COST ??= '4';
// Lambda runs Node 22; the SDK's notice about Node 20 is noise in test output.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

const endpoint = process.env.DYNAMODB_ENDPOINT as string;

beforeAll(async () => {
  const client = localClient(endpoint);
  await ensureTable(client, tableName);
  client.destroy();
});

afterAll(async () => {
  const client = localClient(endpoint);
  await client.send(new DeleteTableCommand({ TableName: tableName }));
  client.destroy();
});
