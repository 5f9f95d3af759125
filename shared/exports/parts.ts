import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { bucketName, s3 } from '#shared/s3/client';

/**
 * The zip's parts: 16 MiB each (S3 allows 10,000 parts, so an export may reach 156 GiB), two in
 * memory (one uploading while the next fills): the archive is never held whole.
 */
export const EXPORT_PART_BYTES = 16 * 1024 ** 2;

/**
 * Writes `bytes` (the zip as it is made) to `key` as an S3 multipart upload and answers the size. On
 * any failure (the stream's or S3's) the multipart upload is aborted, so no parts are left billed.
 */
export async function uploadStream(
  key: string,
  bytes: AsyncIterable<Uint8Array>,
  partBytes = EXPORT_PART_BYTES,
): Promise<number> {
  const created = await s3.send(
    new CreateMultipartUploadCommand({ Bucket: bucketName, Key: key, ContentType: 'application/zip' }),
  );
  const uploadId = created.UploadId as string;
  const parts: { PartNumber: number; ETag: string }[] = [];
  // Two part buffers, filled in turn: one uploading while the other fills, each reused once its
  // upload is done, so a run allocates two parts once instead of a part's garbage per part.
  const buffers = [Buffer.allocUnsafe(partBytes), Buffer.allocUnsafe(partBytes)];
  const uploads: Promise<void>[] = [Promise.resolve(), Promise.resolve()];
  let filling = 0;
  let filled = 0;
  const sendFilled = async () => {
    const PartNumber = parts.length + 1;
    const Body = (buffers[filling] as Buffer).subarray(0, filled);
    parts.push({ PartNumber, ETag: '' });
    const upload = s3
      .send(new UploadPartCommand({ Bucket: bucketName, Key: key, UploadId: uploadId, PartNumber, Body }))
      .then((result) => {
        (parts[PartNumber - 1] as { ETag: string }).ETag = result.ETag as string;
      });
    // Awaited before its buffer is reused or at the end; a failure meanwhile is not unhandled.
    upload.catch(() => undefined);
    uploads[filling] = upload;
    filling = 1 - filling;
    filled = 0;
    await uploads[filling];
  };
  let size = 0;
  try {
    for await (const chunk of bytes) {
      size += chunk.length;
      for (let offset = 0; offset < chunk.length; ) {
        const copied = Math.min(partBytes - filled, chunk.length - offset);
        (buffers[filling] as Buffer).set(chunk.subarray(offset, offset + copied), filled);
        filled += copied;
        offset += copied;
        if (filled === partBytes) await sendFilled();
      }
    }
    // The last part may be smaller than the rest (and an empty zip still has its end record).
    if (filled > 0 || parts.length === 0) await sendFilled();
    await Promise.all(uploads);
    await s3.send(
      new CompleteMultipartUploadCommand({
        Bucket: bucketName,
        Key: key,
        UploadId: uploadId,
        MultipartUpload: { Parts: parts },
      }),
    );
    return size;
  } catch (error) {
    await s3
      .send(new AbortMultipartUploadCommand({ Bucket: bucketName, Key: key, UploadId: uploadId }))
      .catch(() => undefined);
    throw error;
  }
}
