import { Readable } from 'node:stream';
import {
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { bucketName, s3 } from '#shared/s3/client';

/**
 * S3 multipart uploads for chunked uploads. Every part but the last must be at least 5 MiB and an
 * upload has at most 10,000 parts, so chunks (at most 4 MiB, the function's payload) are staged as
 * small objects until a part's worth has arrived, and a part is then streamed from those objects and
 * the arriving chunk: Lambda holds one chunk in memory, never the part or the file.
 */
export const MIN_PART_BYTES = 5 * 1024 ** 2;
export const MAX_PARTS = 10_000;
/** S3's largest object. */
export const MAX_OBJECT_BYTES = 5 * 1024 ** 4;

/** The part size for a file of `total` bytes: 5 MiB, or larger where 10,000 parts would not hold it. */
export const partSizeFor = (total: number) => Math.max(MIN_PART_BYTES, Math.ceil(total / MAX_PARTS));

export async function createMultipart(key: string, type: string): Promise<string> {
  const result = await s3.send(
    new CreateMultipartUploadCommand({ Bucket: bucketName, Key: key, ContentType: type }),
  );
  return result.UploadId as string;
}

/**
 * Staged objects read at once while a part is made: one GET at a time took 80 round trips for a
 * 5 MiB part of 64 KiB chunks; all at once would hold a whole part (up to 525 MiB) in memory. With 8,
 * at most 32 MiB of 4 MiB chunks wait to be passed on.
 */
export const STAGED_READS_AT_ONCE = 8;

/** The staged objects' bytes in order, read `STAGED_READS_AT_ONCE` ahead. */
async function* stagedBytes(staged: { key: string }[]): AsyncGenerator<Uint8Array> {
  const reads: Promise<Uint8Array>[] = [];
  let next = 0;
  const readNext = () => {
    const object = staged[next++] as { key: string };
    const read = s3
      .send(new GetObjectCommand({ Bucket: bucketName, Key: object.key }))
      .then((result) =>
        (result.Body as { transformToByteArray(): Promise<Uint8Array> }).transformToByteArray(),
      );
    // Awaited in order below; a failure while an earlier read is awaited is not unhandled meanwhile.
    read.catch(() => undefined);
    reads.push(read);
  };
  while (next < Math.min(STAGED_READS_AT_ONCE, staged.length)) readNext();
  while (reads.length) {
    const bytes = await (reads.shift() as Promise<Uint8Array>);
    if (next < staged.length) readNext();
    yield bytes;
  }
}

/**
 * One part: the staged objects' bytes in order, then `tail`; answers the part's ETag. A staged
 * object that cannot be read (a concurrent request made this part and deleted them) fails the call
 * with S3's error, and the part's request is aborted.
 */
export async function uploadPart(
  key: string,
  uploadId: string,
  partNumber: number,
  staged: { key: string; size: number }[],
  tail: Buffer,
): Promise<string> {
  async function* bytes() {
    yield* stagedBytes(staged);
    yield tail;
  }
  let readFailure: unknown;
  const abort = new AbortController();
  let body: Buffer | Readable = tail;
  if (staged.length) {
    body = Readable.from(bytes());
    // The request pipes the body and never hears of its errors: without this listener a failed
    // read would be an uncaught exception, and the request would wait for bytes forever.
    body.on('error', (error) => {
      readFailure = error;
      abort.abort();
    });
  }
  try {
    const result = await s3.send(
      new UploadPartCommand({
        Bucket: bucketName,
        Key: key,
        UploadId: uploadId,
        PartNumber: partNumber,
        Body: body,
        ContentLength: staged.reduce((sum, object) => sum + object.size, tail.length),
      }),
      { abortSignal: abort.signal },
    );
    return result.ETag as string;
  } catch (error) {
    throw readFailure ?? error;
  }
}

export async function completeMultipart(key: string, uploadId: string, etags: string[]): Promise<void> {
  await s3.send(
    new CompleteMultipartUploadCommand({
      Bucket: bucketName,
      Key: key,
      UploadId: uploadId,
      MultipartUpload: { Parts: etags.map((ETag, index) => ({ ETag, PartNumber: index + 1 })) },
    }),
  );
}
