import { S3ServiceException } from '@aws-sdk/client-s3';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { documents, tableName } from '#shared/db/client';
import { chunkPartKey, uploadKey } from '#shared/db/keys';
import { notFound, ServiceError } from '#shared/errors';
import type { FileRecord } from '#shared/files/model';
import { completeMultipart } from '#shared/files/multipart-objects';
import { type ChunkProgress, type PendingUpload, uploadedFile } from '#shared/files/pending';
import { recordUpload } from '#shared/files/presigned';
import { getFile } from '#shared/files/store';
import type { Uploader } from '#shared/files/uploads';

/** The assembly of a chunked upload once its last chunk is in: parts into one object, then the file. */

/** Part items live a week at most (DynamoDB's TTL removes them), as completion records do. */
export const PART_ITEM_SECONDS = 7 * 86_400;

export const unknownUpload = () =>
  notFound('no chunked upload has this x-zipline-p-identifier (never opened, completed, or expired)');

/**
 * Assembles the parts into the file's object and records the file with a marker naming it, so the
 * last chunk sent again answers the same file. S3 refusing the assembly (a client error such as
 * `InvalidPart`, or `NoSuchUpload` once a concurrent request assembled it) is a 409 that changes
 * nothing, unless that concurrent request has recorded the file: then it is the answer. The upload
 * stays as it was, and sending the last chunk again tries once more.
 */
export async function complete(user: Uploader, upload: PendingUpload): Promise<FileRecord> {
  const progress = upload.chunked as ChunkProgress;
  try {
    await completeMultipart(upload.objectKey, progress.s3UploadId, await partETags(user.id, upload));
  } catch (error) {
    if (!(error instanceof S3ServiceException && error.$fault === 'client')) throw error;
    const file = await completedFile(user.id, upload.id, upload.size);
    if (file) return file;
    throw new ServiceError(
      'conflict',
      `the chunks could not be assembled into one file (S3 ${error.name}): send the last chunk again, or the whole file under a new x-zipline-p-identifier`,
    );
  }
  try {
    return await recordUpload(user, upload);
  } catch (error) {
    // A concurrent completion recorded the file first: answer it.
    const file = error instanceof ServiceError && (await completedFile(user.id, upload.id, upload.size));
    if (file) return file;
    throw error;
  }
}

/** The file a completed chunked upload of `size` bytes became, while it exists. */
export async function completedFile(
  userId: string,
  uploadId: string,
  size: number,
): Promise<FileRecord | undefined> {
  const done = await uploadedFile(userId, uploadId);
  if (done?.size !== size) return undefined;
  return getFile(userId, done.fileId, { consistent: true });
}

async function partETags(userId: string, upload: PendingUpload): Promise<string[]> {
  const prefix = chunkPartKey(userId, upload.id, 0).sk.slice(0, -5);
  const etags: string[] = [];
  let exclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await documents.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': uploadKey(userId, upload.id).pk, ':prefix': prefix },
        ConsistentRead: true,
        ExclusiveStartKey: exclusiveStartKey,
      }),
    );
    for (const item of page.Items ?? []) etags.push(String(item.etag));
    exclusiveStartKey = page.LastEvaluatedKey;
  } while (exclusiveStartKey);
  if (etags.length !== upload.chunked?.parts) throw unknownUpload();
  return etags;
}
