import { S3ServiceException } from '@aws-sdk/client-s3';
import { UpdateBuilder } from '#shared/db/expressions/update';
import { chunkPartKey, uploadKey } from '#shared/db/keys/uploads';
import { putIn, updateIn } from '#shared/db/table-calls';
import { type TransactItem, TransactionConditionFailed } from '#shared/db/transact';
import { ServiceError } from '#shared/errors';
import { uploadPart } from '#shared/files/bucket/multipart';
import { deleteObjects, putObject } from '#shared/files/bucket/objects';
import { stagedChunkKey, UPLOAD_LEFTOVERS_DAYS } from '#shared/files/layout';
import {
  type ChunkProgress,
  type PendingUpload,
  RESERVATION_SECONDS,
  sessionEnd,
} from '#shared/files/reservation/pending';
import {
  partStartOf,
  type StagedChunk,
  stagedChunkItem,
  stagedChunks,
} from '#shared/files/reservation/staged-chunks';
import { write } from '#shared/files/reservation/writer';
import type { SessionReads } from '#shared/files/upload/chunked/session';

/** Part items outlive the longest upload session (DynamoDB's TTL removes them). */
const PART_ITEM_SECONDS = UPLOAD_LEFTOVERS_DAYS * 86_400;

/**
 * The transaction item recording a chunked upload's progress `next` (and its reservation extended to
 * `reservedUntil`), on condition that no other request moved it on from `received` meanwhile.
 */
function progressUpdate(
  userId: string,
  uploadId: string,
  next: ChunkProgress,
  reservedUntil: string,
  received: number,
): TransactItem {
  const update = new UpdateBuilder().set('chunked', next).set('reservedUntil', reservedUntil);
  update.when(`${update.name('chunked')}.${update.name('received')} = ${update.value(received)}`);
  return updateIn(uploadKey(userId, uploadId), update.build());
}

/**
 * Adds a chunk: staged as an object (and an item recording it) while the part in the making is
 * smaller than the part size, else streamed with the staged chunks into the next S3 part. The
 * progress moves on in a write conditional on where it stood, so of two requests carrying the same
 * chunk one records it; the other finds it received and answers as for a resend. Undefined when the
 * upload is gone meanwhile (a concurrent request completed it).
 */
export async function append(
  userId: string,
  upload: PendingUpload,
  progress: ChunkProgress,
  chunk: { start: number; bytes: Buffer; last: boolean },
  session: SessionReads,
): Promise<PendingUpload | undefined> {
  const partStart = partStartOf(progress);
  const received = chunk.start + chunk.bytes.length;
  const makesPart = chunk.last || progress.received - partStart + chunk.bytes.length >= progress.partSize;
  const stagedKey = stagedChunkKey(userId, upload.id, chunk.start);
  const next: ChunkProgress = {
    identifier: progress.identifier,
    s3UploadId: progress.s3UploadId,
    received,
    parts: makesPart ? progress.parts + 1 : progress.parts,
    partSize: progress.partSize,
    partStart: makesPart ? received : partStart,
    ...(progress.chunkBytes ? { chunkBytes: progress.chunkBytes } : {}),
    // An upload begun by an earlier version lists its staged chunks until its next part is made.
    ...(!makesPart && progress.staged
      ? { staged: [...progress.staged, { key: stagedKey, size: chunk.bytes.length }] }
      : {}),
  };
  const now = Date.now();
  const reservedUntil = new Date(
    Math.min(now + RESERVATION_SECONDS * 1000, sessionEnd(upload)),
  ).toISOString();
  const moved = progressUpdate(userId, upload.id, next, reservedUntil, progress.received);
  let staged: StagedChunk[] = [];
  let record: TransactItem | undefined;
  let refused: unknown;
  try {
    if (makesPart) {
      staged = await stagedChunks(userId, upload);
      const etag = await uploadPart(upload.objectKey, progress.s3UploadId, next.parts, staged, chunk.bytes);
      record = putIn({
        ...chunkPartKey(userId, upload.id, next.parts),
        etag,
        expiresAt: Math.floor(now / 1000) + PART_ITEM_SECONDS,
      });
    } else {
      await putObject(stagedKey, chunk.bytes, 'application/octet-stream');
      record = stagedChunkItem(userId, upload.id, chunk.start, chunk.bytes.length, now);
    }
  } catch (error) {
    // A concurrent request with the same chunk made the part and deleted the staged objects, or
    // completed the upload: S3 then refuses this one's reads or part.
    if (!(error instanceof S3ServiceException)) throw error;
    refused = error;
  }
  if (record) {
    try {
      await write(userId, { items: [moved, record] });
      if (staged.length) await deleteObjects(staged.map((object) => object.key));
      return { ...upload, chunked: next, reservedUntil };
    } catch (error) {
      if (!(error instanceof TransactionConditionFailed)) throw error;
    }
  }
  // Overtaken: another request moved the upload past this chunk (undefined: gone, as completed);
  // a 409 when it has not come that far, or S3's refusal itself when that stopped this request.
  const current = await session.pending();
  if (!current?.chunked) return undefined;
  if (current.chunked.received >= next.received) return current;
  if (refused) throw refused;
  throw new ServiceError('conflict', `this upload expects the chunk at byte ${current.chunked.received}`);
}
