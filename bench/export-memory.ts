import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ensureTable, localClient, startDynamoDbLocal } from '../infra/local/dynamodb.ts';
import { s3Event, startS3Local } from '../infra/local/s3.ts';
import { peakRssMb } from './processes.ts';

/**
 * What an export costs its function (issue 36): `npx tsx bench/export-memory.ts [small] [large MiB]`.
 * A library of `small` files of 1–64 KiB and two files of `large` MiB in DynamoDB Local and s3rver;
 * the export function's handler run in a process of its own (as Lambda runs it), which reports the
 * kernel's high-water mark of its resident memory after loading the handler (the baseline) and
 * after the run, the wall time and the zip's size. s3rver runs in this process, not the measured one.
 */
const SMALL = Number(process.argv[3] ?? 5000);
const LARGE_MIB = Number(process.argv[4] ?? 256);

if (process.argv[2] === 'run') {
  const [userId, exportId] = [process.argv[5] as string, process.argv[6] as string];
  const { loadHandler } = await import('../infra/local/dispatch.ts');
  const handler = (await loadHandler('exports/make')) as unknown as (
    event: unknown,
    context: unknown,
  ) => Promise<{ outcomes: { outcome: string }[] }>;
  const { exportRequestKey } = await import('#shared/exports/model');
  const { getExport } = await import('#shared/exports/store');
  const baseline = peakRssMb(process.pid);
  const started = performance.now();
  const event = s3Event(process.env.BUCKET_NAME as string, exportRequestKey(userId, exportId));
  const ran = await handler(event, { getRemainingTimeInMillis: () => 900_000 });
  const wallS = (performance.now() - started) / 1000;
  const record = await getExport(userId, exportId);
  console.log(
    JSON.stringify({
      outcome: ran.outcomes[0]?.outcome,
      files: record.filesDone,
      zipMb: Math.round(record.size / 1e6),
      baselineMb: Math.round(baseline),
      peakMb: Math.round(peakRssMb(process.pid)),
      wallS: Number(wallS.toFixed(1)),
      mbPerS: Number((record.size / 1e6 / wallS).toFixed(1)),
    }),
  );
  process.exit(0);
}

const directory = mkdtempSync(join(tmpdir(), 'export-memory-'));
const dynamo = await startDynamoDbLocal();
const s3Local = await startS3Local({ directory, bucketName: 'export-bench' });
try {
  Object.assign(process.env, {
    DYNAMODB_ENDPOINT: dynamo.endpoint,
    TABLE_NAME: 'export-bench',
    BUCKET_NAME: 'export-bench',
    S3_ENDPOINT: s3Local.endpoint,
    SERVICE_KEYS: process.env.SERVICE_KEYS ?? randomBytes(32).toString('base64url'),
  });
  await ensureTable(localClient(dynamo.endpoint), 'export-bench');
  const { PutObjectCommand } = await import('@aws-sdk/client-s3');
  const { BatchWriteCommand } = await import('@aws-sdk/lib-dynamodb');
  const { documents, tableName } = await import('#shared/db/client');
  const { s3, bucketName } = await import('#shared/s3/client');
  const { toFileItem } = await import('#shared/files/record/items');
  const { newFileId } = await import('#shared/files/names');
  const { createUser } = await import('#shared/users/creation');
  const { createExport } = await import('#shared/exports/store');
  const { forEachConcurrently } = await import('#shared/concurrency');
  const user = await createUser({ username: `bench-${process.pid}`, passwordHash: 'x', role: 'USER' });
  const sizes = [
    ...Array.from({ length: SMALL }, () => 1024 + Math.floor(Math.random() * 63 * 1024)),
    LARGE_MIB * 1024 ** 2,
    LARGE_MIB * 1024 ** 2,
  ];
  const now = new Date().toISOString();
  const files = sizes.map((size, index) => {
    const id = newFileId(Date.now() + index);
    return {
      id,
      name: `bench-${id}`,
      originalName: `file-${index}.bin`,
      size,
      type: 'application/octet-stream',
      views: 0,
      maxViews: null,
      favorite: false,
      createdAt: now,
      updatedAt: now,
      deletesAt: null,
      downloadAsOriginalName: false,
      objectKey: `files/${user.id}/${id}`,
      passwordHash: null,
      version: 1,
      thumbnail: null,
      folderId: null,
      tags: [],
    };
  });
  const batches = Array.from({ length: Math.ceil(files.length / 25) }, (_, i) =>
    files.slice(i * 25, i * 25 + 25),
  );
  await forEachConcurrently(batches, 4, async (batch) => {
    let pending: unknown[] = batch.map((file) => ({ PutRequest: { Item: toFileItem(user.id, file) } }));
    while (pending.length) {
      const result = await documents.send(
        new BatchWriteCommand({ RequestItems: { [tableName]: pending as never } }),
      );
      pending = result.UnprocessedItems?.[tableName] ?? [];
    }
  });
  await forEachConcurrently(files, 8, async (file) => {
    await s3.send(
      new PutObjectCommand({ Bucket: bucketName, Key: file.objectKey, Body: randomBytes(file.size) }),
    );
  });
  const record = await createExport(user.id);
  const totalMb = Math.round(sizes.reduce((sum, size) => sum + size, 0) / 1e6);
  console.log(`library: ${files.length} files, ${totalMb} MB`);
  // Asynchronously: s3rver answers from this process's event loop.
  const { stdout } = await promisify(execFile)(
    'npx',
    ['tsx', 'bench/export-memory.ts', 'run', String(SMALL), String(LARGE_MIB), user.id, record.id],
    { encoding: 'utf8', env: process.env, maxBuffer: 64 * 1024 ** 2 },
  );
  // The last line is the figures (the function's own log line comes before it).
  console.log(stdout.trim().split('\n').pop());
} finally {
  await s3Local.stop();
  await dynamo.stop();
  rmSync(directory, { recursive: true, force: true });
}
