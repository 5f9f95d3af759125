import { PutObjectCommand } from '@aws-sdk/client-s3';
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { forEachConcurrently } from '#shared/concurrency';
import { documents, tableName } from '#shared/db/client';
import { FILE_PREFIX, fileNameKey } from '#shared/db/keys/files';
import { bucketName, s3 } from '#shared/s3/client';
import { emptyStats, fillLibrary } from '../../bench/library.ts';
import { partitionItems } from './snapshot.ts';

/**
 * Gives a user `count` files quickly, straight to the table and the bucket (setup, not what is
 * tested): the library's file items and counters (bench/library.ts), a name claim for each, and a
 * small object at each file's key. Answers the files' public names.
 */
export async function seedFiles(userId: string, count: number): Promise<string[]> {
  await fillLibrary(userId, 0, count, emptyStats());
  const files = (await partitionItems(userId)).filter((item) => String(item.sk).startsWith(FILE_PREFIX));
  const batches: Record<string, unknown>[][] = [];
  for (let offset = 0; offset < files.length; offset += 25) batches.push(files.slice(offset, offset + 25));
  await forEachConcurrently(batches, 8, async (batch) => {
    let pending: unknown[] = batch.map((file) => ({
      PutRequest: {
        Item: {
          ...fileNameKey(String(file.name)),
          userId,
          fileId: String(file.sk).slice(FILE_PREFIX.length),
        },
      },
    }));
    while (pending.length) {
      const result = await documents.send(
        new BatchWriteCommand({ RequestItems: { [tableName]: pending as never } }),
      );
      pending = result.UnprocessedItems?.[tableName] ?? [];
    }
  });
  await forEachConcurrently(files, 16, async (file) => {
    await s3.send(
      new PutObjectCommand({ Bucket: bucketName, Key: String(file.objectKey), Body: String(file.name) }),
    );
  });
  return files.map((file) => String(file.name));
}
