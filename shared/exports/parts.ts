import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { bucketName, s3 } from '#shared/s3/client';

/**
 * The zip's parts: 16 MiB each (S3 allows 10,000 parts, so an export may reach 156 GiB), at most
 * two in memory (one uploading while the next fills): the archive is never held whole.
 */
export const EXPORT_PART_BYTES = 16 * 1024 ** 2;
const PARTS_IN_FLIGHT = 1;

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
  const inFlight = new Set<Promise<void>>();
  let partsSent = 0;
  const sendPart = (body: Buffer) => {
    partsSent += 1;
    const PartNumber = partsSent;
    const upload = s3
      .send(
        new UploadPartCommand({ Bucket: bucketName, Key: key, UploadId: uploadId, PartNumber, Body: body }),
      )
      .then((result) => {
        parts.push({ PartNumber, ETag: result.ETag as string });
      });
    // Awaited below; a failure while another part is awaited is not unhandled meanwhile.
    upload.catch(() => undefined);
    const tracked = upload.finally(() => inFlight.delete(tracked));
    tracked.catch(() => undefined);
    inFlight.add(tracked);
    return upload;
  };
  let size = 0;
  try {
    let pending: Uint8Array[] = [];
    let pendingBytes = 0;
    for await (const chunk of bytes) {
      pending.push(chunk);
      pendingBytes += chunk.length;
      size += chunk.length;
      if (pendingBytes < partBytes) continue;
      while (inFlight.size >= PARTS_IN_FLIGHT) await Promise.race(inFlight);
      const whole = Buffer.concat(pending);
      // A copy of the rest, so the part sent is not kept alive by a view of it.
      pending = [Buffer.from(whole.subarray(partBytes))];
      pendingBytes = whole.length - partBytes;
      sendPart(whole.subarray(0, partBytes));
    }
    await Promise.all(inFlight);
    // The last part may be smaller than the rest (and an empty zip still has its end record).
    if (pendingBytes > 0 || partsSent === 0) await sendPart(Buffer.concat(pending));
    parts.sort((a, b) => a.PartNumber - b.PartNumber);
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
