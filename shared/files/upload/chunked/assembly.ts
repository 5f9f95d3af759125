import { randomUUID } from 'node:crypto';
import { S3ServiceException } from '@aws-sdk/client-s3';
import { unlessConditionFails } from '#shared/db/expressions/conditions';
import { UpdateBuilder } from '#shared/db/expressions/update';
import { chunkPartKey, uploadKey } from '#shared/db/keys/uploads';
import { queryItems, updateItem } from '#shared/db/table-calls';
import { ServiceError } from '#shared/errors';
import { completeMultipart } from '#shared/files/bucket/multipart';
import type { FileRecord } from '#shared/files/model';
import type { Uploader } from '#shared/files/reservation/options';
import type { ChunkProgress, PendingUpload } from '#shared/files/reservation/pending';
import { recordReserved } from '#shared/files/reservation/record';
import { type SessionReads, unknownUpload } from '#shared/files/upload/chunked/session';

/**
 * The completion of a chunked upload once its last chunk is in, in one place: the claim (written to
 * the session's item here alone), the parts into one object, the file recorded.
 */

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
export async function complete(
  user: Uploader,
  upload: PendingUpload,
  session: SessionReads,
): Promise<FileRecord> {
  const progress = upload.chunked as ChunkProgress;
  const claim = randomUUID();
  const now = Date.now();
  const until = new Date(now + COMPLETION_CLAIM_SECONDS * 1000);
  if (!(await claimCompletion(user.id, upload, claim, until, new Date(now)))) {
    // Read in this order: the upload goes exactly when its file is recorded.
    if (!(await session.pending())) {
      const file = await session.file();
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
    const etags = await partETags(user.id, upload);
    await completeMultipart(upload.objectKey, progress.s3UploadId, etags);
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

/** Writes the session's item on its own; false when the update's condition does not hold. */
async function writeSession(userId: string, uploadId: string, update: UpdateBuilder): Promise<boolean> {
  const written = await unlessConditionFails(updateItem(uploadKey(userId, uploadId), update.build()));
  return written !== undefined;
}

/**
 * Claims the completion of a chunked upload whose bytes are all in, as `claim` until `until`;
 * false while another claim holds (one that lapsed before `now` does not).
 */
function claimCompletion(
  userId: string,
  upload: PendingUpload,
  claim: string,
  until: Date,
  now: Date,
): Promise<boolean> {
  const update = new UpdateBuilder()
    .set('completingUntil', until.toISOString())
    .set('completionClaim', claim);
  const [received, completingUntil] = [
    `${update.name('chunked')}.${update.name('received')}`,
    update.name('completingUntil'),
  ];
  update.when(
    `${received} = ${update.value(upload.size)} AND (attribute_not_exists(${completingUntil}) OR ${completingUntil} < ${update.value(now.toISOString())})`,
  );
  return writeSession(userId, upload.id, update);
}

/** Gives a completion's `claim` back (if it still holds it), so the last chunk sent again tries at once. */
async function releaseCompletionClaim(userId: string, uploadId: string, claim: string): Promise<void> {
  const update = new UpdateBuilder().remove('completingUntil').remove('completionClaim');
  await writeSession(
    userId,
    uploadId,
    update.when(`${update.name('completionClaim')} = ${update.value(claim)}`),
  );
}
