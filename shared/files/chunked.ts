import { createHash, randomBytes } from 'node:crypto';
import { tableName } from '#shared/db/client';
import { chunkPartKey, uploadKey } from '#shared/db/keys';
import { TransactionConditionFailed } from '#shared/db/transact';
import { invalid, ServiceError } from '#shared/errors';
import { complete, completedFile, PART_ITEM_SECONDS, unknownUpload } from '#shared/files/chunk-assembly';
import { chunkedObjectKey, stagedChunkKey } from '#shared/files/layout';
import type { FileRecord } from '#shared/files/model';
import { createMultipart, partSizeFor, uploadPart } from '#shared/files/multipart-objects';
import { deleteObjects, putObject } from '#shared/files/objects';
import {
  type ChunkProgress,
  getUpload,
  type PendingUpload,
  RESERVATION_SECONDS,
} from '#shared/files/pending';
import { reservePending } from '#shared/files/presigned';
import { assertWithinQuota } from '#shared/files/stats';
import { transactAsActiveOwner } from '#shared/files/store';
import {
  assertNamesFit,
  pendingUploadOptions,
  type Uploader,
  type UploadOptions,
} from '#shared/files/uploads';
import { quotaLimits } from '#shared/quota';

/** One chunk of a chunked upload, as its headers describe it. */
export interface ChunkHeaders {
  start: number;
  /** The range's end as sent: exclusive (Zipline's uploader) or inclusive (HTTP); the body decides. */
  end: number;
  total: number;
  /** `x-zipline-p-identifier`; required on every chunk but the first. */
  identifier: string | null;
  last: boolean;
  fileName: string;
  type: string;
}

/** One chunk as it arrived: its place in the file (from `content-range`) and its bytes. */
export interface Chunk extends ChunkHeaders {
  bytes: Buffer;
}

/** The pending item's id of a client's identifier: per user, so identifiers never meet. */
const uploadIdOf = (userId: string, identifier: string) =>
  createHash('sha256').update(`${userId}\n${identifier}`).digest('hex').slice(0, 32);

/**
 * Receives one chunk of a chunked upload (Zipline's `content-range` + `x-zipline-p-*`). The first
 * chunk opens the upload: the file and its declared size are reserved in the quota (like a presigned
 * upload, so a refused upload stores nothing) and an S3 multipart upload is created at the file's
 * key. Chunks must come in order; a chunk whose bytes were received already is a resend and changes
 * nothing. Answers the identifier and, after the last chunk, the recorded file (also to that chunk
 * sent again, while the file exists).
 */
export async function receiveChunk(
  user: Uploader,
  chunk: Chunk,
  options: UploadOptions,
): Promise<{ identifier: string; file: FileRecord | null }> {
  const length = chunk.bytes.length;
  // Zipline's uploader sends the end exclusive (`bytes 0-100/200` for 100 bytes), HTTP inclusive.
  if (length === 0 || (chunk.end - chunk.start !== length && chunk.end - chunk.start + 1 !== length)) {
    throw invalid(`content-range does not match the chunk's ${length} bytes`);
  }
  const until = chunk.start + length;
  if (until > chunk.total) throw invalid(`the chunk ends at byte ${until}, past the total of ${chunk.total}`);
  if (chunk.last !== (until === chunk.total)) {
    throw invalid(
      chunk.last
        ? `x-zipline-p-lastchunk is true, but the chunks end at byte ${until} of ${chunk.total}`
        : 'the chunk that reaches the total must say x-zipline-p-lastchunk: true',
    );
  }
  const identifier = chunk.identifier ?? randomBytes(16).toString('hex');
  const uploadId = uploadIdOf(user.id, identifier);
  let upload = await getUpload(user.id, uploadId);
  if (!upload && chunk.last) {
    // The last chunk again after the file was recorded (its answer was lost): the same file.
    const file = await completedFile(user.id, uploadId, chunk.total);
    if (file) return { identifier, file };
  }
  upload ??= chunk.start === 0 ? await open(user, uploadId, identifier, chunk, options) : undefined;
  if (!upload?.chunked) throw unknownUpload();
  if (upload.size !== chunk.total) {
    throw invalid(`this upload was opened for ${upload.size} bytes, not ${chunk.total}`);
  }
  if (until <= upload.chunked.received) {
    // A resend. The last chunk's resend before its file is recorded (the completion failed, or is
    // under way in another request) completes the upload again.
    return { identifier, file: chunk.last ? await complete(user, upload) : null };
  }
  if (chunk.start !== upload.chunked.received) {
    throw new ServiceError('conflict', `this upload expects the chunk at byte ${upload.chunked.received}`);
  }
  upload = await append(user.id, upload, upload.chunked, chunk);
  return { identifier, file: chunk.last ? await complete(user, upload) : null };
}

async function open(
  user: Uploader,
  uploadId: string,
  identifier: string,
  chunk: Chunk,
  options: UploadOptions,
): Promise<PendingUpload> {
  assertNamesFit(options, [chunk.fileName]);
  const limits = quotaLimits(user.quota);
  assertWithinQuota(limits, { files: 1, bytes: chunk.total });
  const objectKey = chunkedObjectKey(user.id, uploadId);
  const now = Date.now();
  const upload: PendingUpload = {
    id: uploadId,
    originalName: chunk.fileName,
    size: chunk.total,
    type: chunk.type,
    objectKey,
    ...pendingUploadOptions(options),
    chunked: {
      identifier,
      s3UploadId: await createMultipart(objectKey, chunk.type),
      received: 0,
      parts: 0,
      partSize: partSizeFor(chunk.total),
      staged: [],
    },
    createdAt: new Date(now).toISOString(),
    reservedUntil: new Date(now + RESERVATION_SECONDS * 1000).toISOString(),
  };
  try {
    await reservePending(user.id, upload, limits);
    return upload;
  } catch (error) {
    // A first chunk sent twice at once: the other request opened it (its multipart upload is used;
    // this one's is aborted by the bucket's lifecycle rule).
    if (!(error instanceof TransactionConditionFailed)) throw error;
    const opened = await getUpload(user.id, uploadId);
    if (!opened) throw error;
    return opened;
  }
}

/**
 * Adds a chunk: staged as an object while the part in the making is smaller than the part size,
 * else streamed with the staged chunks into the next S3 part. The progress moves on in a write
 * conditional on where it stood, so of two requests carrying the same chunk one records it; the
 * other finds it received and answers as for a resend.
 */
async function append(
  userId: string,
  upload: PendingUpload,
  progress: ChunkProgress,
  chunk: Chunk,
): Promise<PendingUpload> {
  const staged = progress.staged.reduce((sum, object) => sum + object.size, 0);
  const next: ChunkProgress = { ...progress, received: chunk.start + chunk.bytes.length };
  let part: { n: number; etag: string } | undefined;
  if (chunk.last || staged + chunk.bytes.length >= progress.partSize) {
    const n = progress.parts + 1;
    part = {
      n,
      etag: await uploadPart(upload.objectKey, progress.s3UploadId, n, progress.staged, chunk.bytes),
    };
    next.parts = n;
    next.staged = [];
  } else {
    const key = stagedChunkKey(userId, upload.id, chunk.start);
    await putObject(key, chunk.bytes, 'application/octet-stream');
    next.staged = [...progress.staged, { key, size: chunk.bytes.length }];
  }
  const now = Date.now();
  const reservedUntil = new Date(now + RESERVATION_SECONDS * 1000).toISOString();
  try {
    await transactAsActiveOwner(userId, [
      {
        Update: {
          TableName: tableName,
          Key: uploadKey(userId, upload.id),
          UpdateExpression: 'SET chunked = :next, reservedUntil = :reservedUntil',
          ConditionExpression: 'chunked.received = :received',
          ExpressionAttributeValues: {
            ':next': next,
            ':reservedUntil': reservedUntil,
            ':received': progress.received,
          },
        },
      },
      ...(part
        ? [
            {
              Put: {
                TableName: tableName,
                Item: {
                  ...chunkPartKey(userId, upload.id, part.n),
                  etag: part.etag,
                  expiresAt: Math.floor(now / 1000) + PART_ITEM_SECONDS,
                },
              },
            },
          ]
        : []),
    ]);
  } catch (error) {
    if (!(error instanceof TransactionConditionFailed)) throw error;
    const current = await getUpload(userId, upload.id);
    if (!current?.chunked) throw unknownUpload();
    if (current.chunked.received >= next.received) return current;
    throw new ServiceError('conflict', `this upload expects the chunk at byte ${current.chunked.received}`);
  }
  if (part && progress.staged.length) await deleteObjects(progress.staged.map((object) => object.key));
  return { ...upload, chunked: next, reservedUntil };
}
