import { TransactionConditionFailed } from '#shared/db/transact';
import { createMultipart, partSizeFor } from '#shared/files/bucket/multipart';
import { chunkedObjectKey } from '#shared/files/layout';
import { assertNamesFit, type Uploader, type UploadOptions } from '#shared/files/reservation/options';
import type { PendingUpload } from '#shared/files/reservation/pending';
import { pendingUpload, reserveWrite } from '#shared/files/reservation/reservation';
import { write } from '#shared/files/reservation/writer';
import type { SessionReads } from '#shared/files/upload/chunked/session';
import { assertUploadAllowed } from '#shared/files/upload/policy';
import { assertWithinQuota, quotaLimits } from '#shared/quota';

/**
 * Opens a chunked upload on its first chunk: the file and its declared size reserved in the quota
 * (like a presigned upload, so a refused upload stores nothing) and an S3 multipart upload created
 * at the file's key.
 */
export async function open(
  user: Uploader,
  uploadId: string,
  identifier: string,
  chunk: { fileName: string; type: string; total: number; bytes: Buffer },
  options: UploadOptions,
  session: SessionReads,
): Promise<PendingUpload> {
  assertNamesFit(options, [chunk.fileName]);
  await assertUploadAllowed(
    [{ originalName: chunk.fileName, type: chunk.type, size: chunk.total }],
    options.extension,
  );
  const limits = quotaLimits(user.quota);
  assertWithinQuota(limits, { files: 1, bytes: chunk.total });
  const objectKey = chunkedObjectKey(user.id, uploadId);
  const s3UploadId = await createMultipart(objectKey, chunk.type);
  const upload = pendingUpload(
    {
      id: uploadId,
      originalName: chunk.fileName,
      size: chunk.total,
      type: chunk.type,
      objectKey,
      chunked: {
        identifier,
        s3UploadId,
        received: 0,
        parts: 0,
        partSize: partSizeFor(chunk.total),
        partStart: 0,
        chunkBytes: chunk.bytes.length,
      },
    },
    options,
  );
  try {
    await write(user.id, reserveWrite(user.id, upload, limits));
    return upload;
  } catch (error) {
    // A first chunk sent twice at once: the other request opened it (its multipart upload is used;
    // this one's is aborted by the bucket's lifecycle rule).
    if (!(error instanceof TransactionConditionFailed)) throw error;
    const opened = await session.pending();
    if (!opened) throw error;
    return opened;
  }
}
