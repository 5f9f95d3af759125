import {
  CopyObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { ServiceError } from '#shared/errors';
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

/**
 * Deletes every stored byte of a user: both of its prefixes, one listing page (up to 1,000 keys) and
 * one DeleteObjects at a time. Idempotent; a key S3 reports it could not delete fails the call, so a
 * repeated call finds it again.
 */
export async function deleteUserObjects(userId: string): Promise<void> {
  // A key with an empty id is the user's prefix: `files/<userId>/`, `uploads/<userId>/`.
  for (const prefix of [fileObjectKey(userId, ''), uploadObjectKey(userId, '')]) {
    let continuationToken: string | undefined;
    do {
      const page = await s3.send(
        new ListObjectsV2Command({
          Bucket: bucketName,
          Prefix: prefix,
          ContinuationToken: continuationToken,
        }),
      );
      const keys = (page.Contents ?? []).flatMap((object) => (object.Key ? [object.Key] : []));
      if (keys.length > 0) {
        const result = await s3.send(
          new DeleteObjectsCommand({
            Bucket: bucketName,
            Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true },
          }),
        );
        if (result.Errors?.length) {
          throw new ServiceError('unavailable', 'the stored files could not all be deleted, try again', {
            'retry-after': '1',
          });
        }
      }
      continuationToken = page.NextContinuationToken;
    } while (continuationToken);
  }
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
