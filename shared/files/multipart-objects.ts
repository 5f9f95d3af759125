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

/** One part: the staged objects' bytes in order, then `tail`; answers the part's ETag. */
export async function uploadPart(
  key: string,
  uploadId: string,
  partNumber: number,
  staged: { key: string; size: number }[],
  tail: Buffer,
): Promise<string> {
  async function* bytes() {
    for (const object of staged) {
      const result = await s3.send(new GetObjectCommand({ Bucket: bucketName, Key: object.key }));
      yield* result.Body as Readable;
    }
    yield tail;
  }
  const result = await s3.send(
    new UploadPartCommand({
      Bucket: bucketName,
      Key: key,
      UploadId: uploadId,
      PartNumber: partNumber,
      Body: staged.length ? Readable.from(bytes()) : tail,
      ContentLength: staged.reduce((sum, object) => sum + object.size, tail.length),
    }),
  );
  return result.ETag as string;
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
