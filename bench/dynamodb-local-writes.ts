import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureTable, localClient, startDynamoDbLocal } from '../infra/local/dynamodb.ts';
import { cpuMs } from './processes.ts';
import { round, table } from './stats.ts';
import { PLAIN_UPLOAD_OPTIONS } from './upload-options.ts';

/**
 * What DynamoDB Local itself spends on an upload's write (issue 39): `npx tsx bench/dynamodb-local-writes.ts`.
 * DynamoDB Local on a disk database, as `npm start` keeps it, and the writes an upload could be made
 * of, each 200 times after 100 of warm-up, two rounds: the upload's transaction as the service builds
 * it (`creationWrite` through `transactAsActiveOwner`), the file item alone as a PutItem, a plain
 * item, and transactions of 1, 3 and 5 plain puts. Prints the JVM's CPU (from /proc) and the wall
 * time of each write, with the load average: the floor any upload through DynamoDB Local pays.
 */
const WARM_UP = 100;
const MEASURED = 200;

const dataDir = mkdtempSync(join(tmpdir(), 'dynamodb-local-writes-'));
const dynamo = await startDynamoDbLocal({ dataDir });
/** Every write of the list, measured against this DynamoDB Local: the table printed. */
async function measure(): Promise<void> {
  Object.assign(process.env, {
    DYNAMODB_ENDPOINT: dynamo.endpoint,
    TABLE_NAME: 'writes-bench',
    // Read at import by the bucket client the file's record module loads; nothing here calls S3.
    BUCKET_NAME: 'writes-bench',
    SERVICE_KEYS: JSON.stringify([
      { id: 'bench', secret: 'a-bench-only-master-key-of-enough-length-0123456789' },
    ]),
  });
  await ensureTable(localClient(dynamo.endpoint), 'writes-bench');

  // Imported only now: the service's modules read the table's name and endpoint at import.
  const { PutCommand, TransactWriteCommand } = await import('@aws-sdk/lib-dynamodb');
  const { documents, tableName } = await import('#shared/db/client');
  const { createUser } = await import('#shared/users/creation');
  const { creationWrite } = await import('#shared/files/reservation/creation');
  const { newRecord } = await import('#shared/files/reservation/record');
  const { transactAsActiveOwner } = await import('#shared/db/transact');
  const { toFileItem } = await import('#shared/files/record/items');

  const owner = await createUser({ username: 'writes-bench', passwordHash: 'unused', role: 'USER' });
  const unlimited = { maxFiles: undefined, maxBytes: undefined };

  const smallFile = () =>
    newRecord(owner.id, { originalName: 'note.txt', type: 'text/plain', size: 120 }, PLAIN_UPLOAD_OPTIONS);

  const plainItem = () => ({
    pk: `PLAIN#${randomBytes(8).toString('hex')}`,
    sk: 'item',
    data: 'x'.repeat(300),
  });
  const transactionOfPuts = (count: number) => () =>
    documents.send(
      new TransactWriteCommand({
        TransactItems: Array.from({ length: count }, () => ({
          Put: { TableName: tableName, Item: plainItem(), ConditionExpression: 'attribute_not_exists(pk)' },
        })),
      }),
    );

  const writes: [string, () => Promise<unknown>][] = [
    [
      "the upload's transaction (owner check, counters, file, name claim, type count)",
      () => transactAsActiveOwner(owner.id, creationWrite(owner.id, [smallFile()], unlimited).items),
    ],
    [
      'PutItem of the file item (with its index entries)',
      () => documents.send(new PutCommand({ TableName: tableName, Item: toFileItem(owner.id, smallFile()) })),
    ],
    [
      'PutItem of a plain item',
      () => documents.send(new PutCommand({ TableName: tableName, Item: plainItem() })),
    ],
    ['transaction of 1 put', transactionOfPuts(1)],
    ['transaction of 3 puts', transactionOfPuts(3)],
    ['transaction of 5 puts', transactionOfPuts(5)],
  ];

  const rows: (string | number)[][] = [['Write', 'Round', 'JVM CPU ms', 'wall ms']];
  const loadAtStart = loadavg()[0] as number;
  for (let roundIndex = 1; roundIndex <= 2; roundIndex++) {
    for (const [name, write] of writes) {
      for (let i = 0; i < WARM_UP; i++) await write();
      const [cpuBefore, started] = [cpuMs(dynamo.process.pid as number), performance.now()];
      for (let i = 0; i < MEASURED; i++) await write();
      const cpu = (cpuMs(dynamo.process.pid as number) - cpuBefore) / MEASURED;
      rows.push([name, roundIndex, round(cpu, 2), round((performance.now() - started) / MEASURED, 2)]);
    }
  }
  console.log(table(rows));
  console.log(
    `load average ${round(loadAtStart, 2)} at the start, ${round(loadavg()[0] as number, 2)} at the end`,
  );
}

// Stopped whatever happens: a failure must not leave the JVM running with no parent.
try {
  await measure();
} finally {
  await dynamo.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(0);
