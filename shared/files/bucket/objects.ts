import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  PutObjectTaggingCommand,
} from '@aws-sdk/client-s3';
import { FILE_PREFIX } from '#shared/db/keys/files';
import { ServiceError } from '#shared/errors';
import {
  fileObjectKey,
  isUploadObjectKey,
  PENDING_TAG,
  thumbnailObjectKey,
  UPLOAD_URL_SECONDS,
} from '#shared/files/layout';
import { bucketName, s3 } from '#shared/s3/client';

const COMPLETED_TAG = { Key: 'upload', Value: 'complete' } as const;

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
  // DeleteObjects takes 1,000 keys at most.
  for (let offset = 0; offset < keys.length; offset += 1000) {
    await s3.send(
      new DeleteObjectsCommand({
        Bucket: bucketName,
        Delete: { Objects: keys.slice(offset, offset + 1000).map((Key) => ({ Key })), Quiet: true },
      }),
    );
  }
}

/** The attributes of a partition's items that `deleteFilesBytes` needs besides the keys. */
export const FILE_BYTES_ATTRIBUTES = ['objectKey'];

/**
 * Deletes the bytes and thumbnails of the file items among `items` (a page of the owner's
 * partition, read with `FILE_BYTES_ATTRIBUTES`): a user's deletion takes them with their metadata,
 * page by page, so the listing of what is left (`deleteUserObjects`) finds only strays.
 */
export async function deleteFilesBytes(items: Record<string, unknown>[]): Promise<void> {
  const keys = items.flatMap((item) =>
    String(item.sk).startsWith(FILE_PREFIX) && typeof item.objectKey === 'string'
      ? [item.objectKey, thumbnailObjectKey(item.objectKey)]
      : [],
  );
  await deleteObjects(keys);
}

/**
 * Deletes every stored byte of a user: each of its prefixes, one listing page (up to 1,000 keys) and
 * one DeleteObjects at a time, while `timeLeft()` allows another page. Idempotent; a key S3 reports
 * it could not delete fails the call, so a repeated call finds it again. False when time ran out
 * first (the next call goes on).
 */
export async function deleteUserObjects(userId: string, timeLeft: () => boolean): Promise<boolean> {
  // A key with an empty id is the user's prefix (`files/<userId>/`); `uploads/<userId>/` holds what
  // presigned uploads of earlier versions left, until the bucket's lifecycle rule expires it;
  // `thumbnails/<userId>/` the previews of its images; `exports/<userId>/` its export zips.
  for (const prefix of [
    fileObjectKey(userId, ''),
    `uploads/${userId}/`,
    `thumbnails/${userId}/`,
    `exports/${userId}/`,
  ]) {
    let continuationToken: string | undefined;
    do {
      if (!timeLeft()) return false;
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
  return true;
}

const statusOf = (error: unknown) =>
  (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;

/**
 * The object's size, or undefined when there is no such object. S3 answers a HEAD of a missing key
 * with 403, not 404, unless the caller may list the whole bucket (a listing grant limited by
 * `s3:prefix` does not count: a HEAD carries no prefix). So a 403 is checked with a listing of
 * exactly that key, which the prefix-limited grant allows: absent there means absent; present
 * means the HEAD really was refused, and that stays an error.
 */
export async function objectSize(key: string): Promise<number | undefined> {
  try {
    const head = await s3.send(new HeadObjectCommand({ Bucket: bucketName, Key: key }));
    return head.ContentLength ?? 0;
  } catch (error) {
    if (error instanceof Error && (error.name === 'NotFound' || error.name === 'NoSuchKey')) return undefined;
    if (statusOf(error) !== 403) throw error;
    const listing = await s3.send(new ListObjectsV2Command({ Bucket: bucketName, Prefix: key, MaxKeys: 1 }));
    if (listing.Contents?.[0]?.Key === key) throw error;
    return undefined;
  }
}

/**
 * Deletes a file's bytes and its thumbnail (by key, made or not: one DeleteObjects). An object that
 * a presigned URL created, while that URL may still be valid (it expires at most
 * `UPLOAD_URL_SECONDS` after the file was recorded), is tagged pending instead: it has to stay in
 * place until the URL has expired, or the URL, which can only create, could PUT it again.
 * Unreferenced, it cannot be downloaded, and the lifecycle rule deletes it within a day; its
 * thumbnail, which no rule expires, is deleted now.
 */
export async function deleteFileObject(file: { objectKey: string; createdAt: string }, now = Date.now()) {
  if (isUploadObjectKey(file.objectKey) && now < Date.parse(file.createdAt) + UPLOAD_URL_SECONDS * 1000) {
    try {
      await s3.send(
        new PutObjectTaggingCommand({
          Bucket: bucketName,
          Key: file.objectKey,
          Tagging: { TagSet: [PENDING_TAG] },
        }),
      );
    } catch (error) {
      // Already gone (deleted with its user's bytes): nothing left to keep.
      if (!(error instanceof Error && error.name === 'NoSuchKey')) throw error;
    }
    await deleteObjects([thumbnailObjectKey(file.objectKey)]);
    return;
  }
  await deleteObjects([file.objectKey, thumbnailObjectKey(file.objectKey)]);
}

/** Takes a presigned upload's object out of the lifecycle rule's reach: it is a file from now on. */
export async function markUploadCompleted(key: string): Promise<void> {
  await s3.send(
    new PutObjectTaggingCommand({ Bucket: bucketName, Key: key, Tagging: { TagSet: [COMPLETED_TAG] } }),
  );
}

/** A whole object's bytes (one GET): a small file served by the function itself. */
export async function readObject(key: string): Promise<Buffer> {
  const result = await s3.send(new GetObjectCommand({ Bucket: bucketName, Key: key }));
  return Buffer.from((await result.Body?.transformToByteArray()) ?? []);
}

/** The first `maxBytes` bytes of an object (one ranged GET), e.g. the start of a text file. */
export async function readObjectStart(key: string, maxBytes: number): Promise<Buffer> {
  const result = await s3.send(
    new GetObjectCommand({ Bucket: bucketName, Key: key, Range: `bytes=0-${maxBytes - 1}` }),
  );
  return Buffer.from((await result.Body?.transformToByteArray()) ?? []);
}
