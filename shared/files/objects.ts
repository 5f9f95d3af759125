import {
  CopyObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { bucketName, s3 } from '#shared/s3/client';

/**
 * The bucket's layout: stored files under `files/<userId>/<fileId>` (a user's bytes are one prefix),
 * presigned uploads land under `uploads/<userId>/<uploadId>` until completed; the bucket's lifecycle
 * rule expires what is left there.
 */
export const fileObjectKey = (userId: string, fileId: string) => `files/${userId}/${fileId}`;
export const uploadObjectKey = (userId: string, uploadId: string) => `uploads/${userId}/${uploadId}`;

/** Presigned URLs live just long enough to be followed. */
export const DOWNLOAD_URL_SECONDS = 60;
export const UPLOAD_URL_SECONDS = 15 * 60;

export async function putObject(key: string, bytes: Buffer, type: string): Promise<void> {
  await s3.send(
    new PutObjectCommand({
      Bucket: bucketName,
      Key: key,
      Body: bytes,
      ContentType: type,
      ContentLength: bytes.length,
    }),
  );
}

export async function deleteObjects(keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  await s3.send(
    new DeleteObjectsCommand({
      Bucket: bucketName,
      Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true },
    }),
  );
}

/** The object's size, or undefined when there is no such object. */
export async function objectSize(key: string): Promise<number | undefined> {
  try {
    const head = await s3.send(new HeadObjectCommand({ Bucket: bucketName, Key: key }));
    return head.ContentLength ?? 0;
  } catch (error) {
    if (error instanceof Error && (error.name === 'NotFound' || error.name === 'NoSuchKey')) return undefined;
    throw error;
  }
}

export async function copyObject(from: string, to: string): Promise<void> {
  await s3.send(new CopyObjectCommand({ Bucket: bucketName, CopySource: `${bucketName}/${from}`, Key: to }));
}

/** Types a browser would run as a page of the bucket's origin are downloaded, not shown. */
const ACTIVE_CONTENT = /^(text\/html|application\/xhtml\+xml|image\/svg\+xml|text\/xml|application\/xml)\b/i;

export function presignDownload(key: string, type: string, fileName: string): Promise<string> {
  const disposition = ACTIVE_CONTENT.test(type) ? 'attachment' : 'inline';
  return getSignedUrl(
    s3,
    new GetObjectCommand({
      Bucket: bucketName,
      Key: key,
      ResponseContentType: type,
      ResponseContentDisposition: `${disposition}; filename*=UTF-8''${encodeURIComponent(fileName)}`,
    }),
    { expiresIn: DOWNLOAD_URL_SECONDS },
  );
}

/** A PUT URL for exactly this size and type (both are signed, so S3 refuses anything else). */
export function presignUpload(key: string, size: number, type: string): Promise<string> {
  return getSignedUrl(
    s3,
    new PutObjectCommand({ Bucket: bucketName, Key: key, ContentLength: size, ContentType: type }),
    { expiresIn: UPLOAD_URL_SECONDS, signableHeaders: new Set(['content-type', 'content-length']) },
  );
}
