import { randomUUID } from 'node:crypto';
import { S3ServiceException } from '@aws-sdk/client-s3';
import { chunkPartKey, uploadKey } from '#shared/db/keys';
import { queryItems } from '#shared/db/table-calls';
import { ServiceError } from '#shared/errors';
import { completeMultipart } from '#shared/files/bucket/multipart';
import { UPLOAD_LEFTOVERS_DAYS } from '#shared/files/layout';
import type { FileRecord } from '#shared/files/model';
import type { Uploader } from '#shared/files/reservation/options';
import type { ChunkProgress, PendingUpload } from '#shared/files/reservation/pending';
import { recordReserved } from '#shared/files/reservation/reservation';
import {
  claimCompletion,
  completedFile,
  readSession,
  releaseCompletionClaim,
  unknownUpload,
} from '#shared/files/upload/chunked/session';

/**
 * The completion of a chunked upload once its last chunk is in, in one place: the claim, the parts
 * into one object, the file recorded; and, once done, the file it became.
 */

/** Part items outlive the longest upload session (DynamoDB's TTL removes them). */
export const PART_ITEM_SECONDS = UPLOAD_LEFTOVERS_DAYS * 86_400;

/**
 * How long a claim on a completion holds: the claimant makes the object and records the file well
 * within its function's 10 s; a claim left by a function that died lapses, so the last chunk sent
 * again can complete.
 */
const COMPLETION_CLAIM_SECONDS = 60;

/**
 * The file of a chunked upload whose last chunk is in: while `upload` is pending it is completed;
 * once gone, the file it became (undefined when there is none of `size` bytes).
 */
export async function finish(
  user: Uploader,
  uploadId: string,
  size: number,
  upload: PendingUpload | undefined,
): Promise<FileRecord | undefined> {
  return upload ? complete(user, upload) : completedFile(user.id, uploadId, size);
}

/**
 * Assembles the parts into the file's object and records the file with a marker naming it, so the
 * last chunk sent again answers the same file. One request at a time: each first claims the
 * completion with a write conditional on no live claim; of copies of the last chunk sent at once,
 * the others answer the recorded file, or 409 while it is in the making. S3 refusing the assembly
 * (a client error such as `InvalidPart`) is a 409 that changes nothing: the upload stays as it was,
 * and sending the last chunk again tries once more.
 */
async function complete(user: Uploader, upload: PendingUpload): Promise<FileRecord> {
  const progress = upload.chunked as ChunkProgress;
  const claim = randomUUID();
  const now = Date.now();
  const until = new Date(now + COMPLETION_CLAIM_SECONDS * 1000);
  if (!(await claimCompletion(user.id, upload, claim, until, new Date(now)))) {
    // Read in this order: the upload goes exactly when its file is recorded.
    if (!(await readSession(user.id, upload.id))) {
      const file = await completedFile(user.id, upload.id, upload.size);
      if (file) return file;
      throw unknownUpload();
    }
    throw new ServiceError(
      'conflict',
      'another request is assembling this upload: send the last chunk again for its file',
    );
  }
  let assembled = false;
  try {
    await completeMultipart(upload.objectKey, progress.s3UploadId, await partETags(user.id, upload));
    assembled = true;
    return await recordReserved(user, upload);
  } catch (error) {
    // Whatever stopped the completion, its claim goes back: the last chunk sent again tries at once.
    await releaseCompletionClaim(user.id, upload.id, claim);
    if (assembled || !(error instanceof S3ServiceException && error.$fault === 'client')) throw error;
    throw new ServiceError(
      'conflict',
      `the chunks could not be assembled into one file (S3 ${error.name}): send the last chunk again, or the whole file under a new x-zipline-p-identifier`,
    );
  }
}

async function partETags(userId: string, upload: PendingUpload): Promise<string[]> {
  const prefix = chunkPartKey(userId, upload.id, 0).sk.slice(0, -5);
  const etags: string[] = [];
  let exclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await queryItems({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': uploadKey(userId, upload.id).pk, ':prefix': prefix },
      ConsistentRead: true,
      ExclusiveStartKey: exclusiveStartKey,
    });
    for (const item of page.Items ?? []) etags.push(String(item.etag));
    exclusiveStartKey = page.LastEvaluatedKey;
  } while (exclusiveStartKey);
  if (etags.length !== upload.chunked?.parts) throw unknownUpload();
  return etags;
}
