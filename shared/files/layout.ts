// No clients or configuration here: the stack reads the pending tag for its lifecycle rule.

/**
 * The bucket's layout: a user's bytes are one prefix, `files/<userId>/`. Files uploaded through
 * `/api/upload` are stored under their file id; a presigned upload's bytes are PUT straight to their
 * final key, named by the upload id (32 hex characters, never a file id), so completing it copies
 * nothing.
 */
export const fileObjectKey = (userId: string, fileId: string) => `files/${userId}/${fileId}`;
export const uploadObjectKey = (userId: string, uploadId: string) => `files/${userId}/${uploadId}`;
/**
 * Thumbnails live apart from the bytes, `thumbnails/<userId>/<object>.webp`: the bucket's
 * notifications watch `files/` only, so a thumbnail never triggers another.
 */
export const thumbnailObjectKey = (objectKey: string) =>
  `thumbnails/${objectKey.replace(/^files\//, '')}.webp`;
/**
 * Who an object under `files/` belongs to: a direct upload's key names its file
 * (`files/<userId>/<fileId>`); a presigned upload's (`files/<userId>/<uploadId>`) and a chunked
 * upload's (`files/<userId>/chunked-<uploadId>`) name their upload, whose file exists only once it
 * is completed. Other keys: undefined.
 */
export type ObjectOwner =
  | { userId: string; fileId: string }
  | { userId: string; uploadId: string; upload: 'presigned' | 'chunked' };
/** An upload's id: 128 random bits in hex (never a file id, which is 26 base-32 characters). */
const UPLOAD_ID = /^[0-9a-f]{32}$/;
export function ownerOfObjectKey(key: string): ObjectOwner | undefined {
  const match = /^files\/([^/]+)\/(chunked-)?([^/]+)$/.exec(key);
  if (!match) return undefined;
  const [, userId, chunked, id] = match as unknown as [string, string, string | undefined, string];
  if (chunked) return UPLOAD_ID.test(id) ? { userId, uploadId: id, upload: 'chunked' } : undefined;
  return UPLOAD_ID.test(id) ? { userId, uploadId: id, upload: 'presigned' } : { userId, fileId: id };
}
/** A presigned upload's object (its URL can PUT it for a while). */
export function isUploadObjectKey(key: string): boolean {
  const owner = ownerOfObjectKey(key);
  return owner !== undefined && 'upload' in owner && owner.upload === 'presigned';
}

/**
 * The tag every object PUT through a presigned URL carries until its upload is completed; the
 * bucket's lifecycle rule expires objects tagged so after a day. Whatever such a URL creates that
 * never became a file (abandoned, reclaimed, or PUT again after its file was deleted) goes that way.
 */
export const PENDING_TAG = { Key: 'upload', Value: 'pending' } as const;

/**
 * How long a chunked upload may take from its first chunk to its last: a 50 GiB file needs about
 * 89 KB/s on average to make it. Later chunks are 404 and the upload is reclaimed.
 */
export const UPLOAD_SESSION_DAYS = 7;
/**
 * When the bucket's lifecycle rules abort an incomplete S3 multipart upload and delete staged chunks
 * (`uploads/`): a day after the longest session ends, so no live upload loses its parts or chunks.
 */
export const UPLOAD_LEFTOVERS_DAYS = UPLOAD_SESSION_DAYS + 1;

/**
 * Chunked uploads: the file's key (its S3 multipart upload's), and where chunks too small for a part
 * wait (`uploads/`, which the bucket's lifecycle rule empties after `UPLOAD_LEFTOVERS_DAYS`).
 */
export const chunkedObjectKey = (userId: string, uploadId: string) => `files/${userId}/chunked-${uploadId}`;
export const stagedChunkKey = (userId: string, uploadId: string, start: number) =>
  `uploads/${userId}/${uploadId}/${start}`;

/** How long a presigned upload's PUT URL works (bucket/presigned-urls.ts signs it for this long). */
export const UPLOAD_URL_SECONDS = 15 * 60;
