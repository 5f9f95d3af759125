import { createHash, randomBytes } from 'node:crypto';
import { S3ServiceException } from '@aws-sdk/client-s3';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { documents, tableName } from '#shared/db/client';
import { chunkedDoneKey, chunkPartKey, uploadKey } from '#shared/db/keys';
import { TransactionConditionFailed } from '#shared/db/transact';
import { invalid, notFound, ServiceError } from '#shared/errors';
import { chunkedObjectKey, stagedChunkKey } from '#shared/files/layout';
import type { FileRecord } from '#shared/files/model';
import { completeMultipart, createMultipart, partSizeFor, uploadPart } from '#shared/files/multipart-objects';
import { deleteObjects, putObject } from '#shared/files/objects';
import {
  type ChunkProgress,
  getUpload,
  type PendingUpload,
  RESERVATION_SECONDS,
} from '#shared/files/pending';
import { recordUpload, reservePending } from '#shared/files/presigned';
import { assertWithinQuota } from '#shared/files/stats';
import { getFile, transactAsActiveOwner } from '#shared/files/store';
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

/** Part items and completion markers live a week at most (DynamoDB's TTL removes them). */
const PART_ITEM_SECONDS = 7 * 86_400;

/** The pending item's id of a client's identifier: per user, so identifiers never meet. */
const uploadIdOf = (userId: string, identifier: string) =>
  createHash('sha256').update(`${userId}\n${identifier}`).digest('hex').slice(0, 32);

const unknownUpload = () =>
  notFound('no chunked upload has this x-zipline-p-identifier (never opened, completed, or expired)');

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

/**
 * Assembles the parts into the file's object and records the file with a marker naming it, so the
 * last chunk sent again answers the same file. S3 refusing the assembly (a client error such as
 * `InvalidPart`, or `NoSuchUpload` once a concurrent request assembled it) is a 409 that changes
 * nothing, unless that concurrent request has recorded the file: then it is the answer. The upload
 * stays as it was, and sending the last chunk again tries once more.
 */
async function complete(user: Uploader, upload: PendingUpload): Promise<FileRecord> {
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
    return await recordUpload(user, upload, (file) => [
      {
        Put: {
          TableName: tableName,
          Item: {
            ...chunkedDoneKey(user.id, upload.id),
            fileId: file.id,
            size: upload.size,
            expiresAt: Math.floor(Date.now() / 1000) + PART_ITEM_SECONDS,
          },
        },
      },
    ]);
  } catch (error) {
    // A concurrent completion recorded the file first: answer it.
    const file = error instanceof ServiceError && (await completedFile(user.id, upload.id, upload.size));
    if (file) return file;
    throw error;
  }
}

/** The file a completed chunked upload of `size` bytes became, while it exists. */
async function completedFile(
  userId: string,
  uploadId: string,
  size: number,
): Promise<FileRecord | undefined> {
  const done = await documents.send(
    new GetCommand({ TableName: tableName, Key: chunkedDoneKey(userId, uploadId), ConsistentRead: true }),
  );
  if (done.Item?.size !== size) return undefined;
  return getFile(userId, String(done.Item.fileId), { consistent: true });
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
