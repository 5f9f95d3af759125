import { randomBytes } from 'node:crypto';
import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { ensureTable, localClient } from '../../infra/local/dynamodb.ts';
import { tableStreamWanted } from './table-stream-wanted.ts';

/**
 * Runs before each test file: a fresh table of the shared definition, test keys, and bcrypt at its
 * lowest cost so password tests stay quick (the configured cost is covered by the benchmark).
 *
 * The table has no stream unless the file reads it (it imports `table-stream.ts`, which asks before
 * this `beforeAll` runs). DynamoDB Local keeps every stream record of a deleted table, and each write
 * to a table with a stream then costs more the more records the run's earlier tables left: 2,500
 * writes took 3.7 s on the first such table and 15.5 s on the eighth, while a table without a stream
 * stays at 3 s. With a stream on every file's table, the clean-clone run grew from 32 to 55 minutes
 * (users-delete-large 28 s alone, 266 s late in the run).
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
  await ensureTable(client, tableName, { stream: tableStreamWanted() });
  client.destroy();
});

afterAll(async () => {
  const client = localClient(endpoint);
  await client.send(new DeleteTableCommand({ TableName: tableName }));
  client.destroy();
});
