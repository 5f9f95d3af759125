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
 * object-created notification watches `files/` only, so a thumbnail never triggers another.
 */
export const thumbnailObjectKey = (objectKey: string) =>
  `thumbnails/${objectKey.replace(/^files\//, '')}.webp`;
/** The user and file a direct upload's key names (`files/<userId>/<fileId>`); other keys: undefined. */
export function fileOfObjectKey(key: string): { userId: string; fileId: string } | undefined {
  const match = /^files\/([^/]+)\/([^/]+)$/.exec(key);
  return match ? { userId: match[1] as string, fileId: match[2] as string } : undefined;
}
export const isUploadObjectKey = (key: string) => /^files\/[^/]+\/[0-9a-f]{32}$/.test(key);

/**
 * The tag every object PUT through a presigned URL carries until its upload is completed; the
 * bucket's lifecycle rule expires objects tagged so after a day. Whatever such a URL creates that
 * never became a file (abandoned, reclaimed, or PUT again after its file was deleted) goes that way.
 */
export const PENDING_TAG = { Key: 'upload', Value: 'pending' } as const;

/**
 * Chunked uploads: the file's key (its S3 multipart upload's), and where chunks too small for a part
 * wait (`uploads/`, which the bucket's lifecycle rule empties after a day).
 */
export const chunkedObjectKey = (userId: string, uploadId: string) => `files/${userId}/chunked-${uploadId}`;
export const stagedChunkKey = (userId: string, uploadId: string, start: number) =>
  `uploads/${userId}/${uploadId}/${start}`;
