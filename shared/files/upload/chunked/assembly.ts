import { randomUUID } from 'node:crypto';
import { S3ServiceException } from '@aws-sdk/client-s3';
import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documents, tableName } from '#shared/db/client';
import { unlessConditionFails } from '#shared/db/conditions';
import { chunkPartKey, uploadKey } from '#shared/db/keys';
import { notFound, ServiceError } from '#shared/errors';
import { completeMultipart } from '#shared/files/bucket/multipart';
import { UPLOAD_LEFTOVERS_DAYS } from '#shared/files/layout';
import type { FileRecord } from '#shared/files/model';
import { getFile } from '#shared/files/record/store';
import type { Uploader } from '#shared/files/reservation/options';
import {
  type ChunkProgress,
  getUpload,
  type PendingUpload,
  uploadedFile,
} from '#shared/files/reservation/pending';
import { recordReserved } from '#shared/files/reservation/reservation';

/** The assembly of a chunked upload once its last chunk is in: parts into one object, then the file. */

/** Part items outlive the longest upload session (DynamoDB's TTL removes them). */
export const PART_ITEM_SECONDS = UPLOAD_LEFTOVERS_DAYS * 86_400;

export const unknownUpload = () =>
  notFound('no chunked upload has this x-zipline-p-identifier (never opened, completed, or expired)');

/**
 * How long a claim on a completion holds: the claimant makes the object and records the file well
 * within its function's 10 s; a claim left by a function that died lapses, so the last chunk sent
 * again can complete.
 */
const COMPLETION_CLAIM_SECONDS = 60;

/**
 * Assembles the parts into the file's object and records the file with a marker naming it, so the
 * last chunk sent again answers the same file. One request at a time: each first claims the
 * completion with a write conditional on no live claim; of copies of the last chunk sent at once,
 * the others answer the recorded file, or 409 while it is in the making. S3 refusing the assembly
 * (a client error such as `InvalidPart`) is a 409 that changes nothing: the upload stays as it was,
 * and sending the last chunk again tries once more.
 */
export async function complete(user: Uploader, upload: PendingUpload): Promise<FileRecord> {
  const progress = upload.chunked as ChunkProgress;
  const claim = randomUUID();
  if (!(await claimCompletion(user.id, upload, claim))) {
    // Read in this order: the upload goes exactly when its file is recorded.
    if (!(await getUpload(user.id, upload.id))) {
      const file = await completedFile(user.id, upload.id, upload.size);
      if (file) return file;
      throw unknownUpload();
    }
    throw new ServiceError(
      'conflict',
      'another request is assembling this upload: send the last chunk again for its file',
    );
  }
  try {
    await completeMultipart(upload.objectKey, progress.s3UploadId, await partETags(user.id, upload));
  } catch (error) {
    await releaseClaim(user.id, upload.id, claim);
    if (!(error instanceof S3ServiceException && error.$fault === 'client')) throw error;
    throw new ServiceError(
      'conflict',
      `the chunks could not be assembled into one file (S3 ${error.name}): send the last chunk again, or the whole file under a new x-zipline-p-identifier`,
    );
  }
  try {
    return await recordReserved(user, upload);
  } catch (error) {
    await releaseClaim(user.id, upload.id, claim);
    throw error;
  }
}

/** Claims the completion of an upload whose bytes are all in; false while another claim holds. */
async function claimCompletion(userId: string, upload: PendingUpload, claim: string): Promise<boolean> {
  const now = Date.now();
  return (
    (await unlessConditionFails(
      documents.send(
        new UpdateCommand({
          TableName: tableName,
          Key: uploadKey(userId, upload.id),
          UpdateExpression: 'SET completingUntil = :until, completionClaim = :claim',
          ConditionExpression:
            'chunked.received = :size AND (attribute_not_exists(completingUntil) OR completingUntil < :now)',
          ExpressionAttributeValues: {
            ':until': new Date(now + COMPLETION_CLAIM_SECONDS * 1000).toISOString(),
            ':claim': claim,
            ':size': upload.size,
            ':now': new Date(now).toISOString(),
          },
        }),
      ),
    )) !== undefined
  );
}

/** Gives a failed completion's claim back, so the last chunk sent again tries at once. */
async function releaseClaim(userId: string, uploadId: string, claim: string): Promise<void> {
  await unlessConditionFails(
    documents.send(
      new UpdateCommand({
        TableName: tableName,
        Key: uploadKey(userId, uploadId),
        UpdateExpression: 'REMOVE completingUntil, completionClaim',
        ConditionExpression: 'completionClaim = :claim',
        ExpressionAttributeValues: { ':claim': claim },
      }),
    ),
  );
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
