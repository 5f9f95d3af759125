/** The keys of an upload under way (presigned or chunked) and of what it became. */

/** A pending presigned upload; expires through the table's TTL when never completed. */
export const uploadKey = (userId: string, uploadId: string) => ({
  pk: `USER#${userId}`,
  sk: `UPLOAD#${uploadId}`,
});

/** The ETag of one S3 part of a chunked upload (`n` zero-padded, so the parts sort in order). */
export const chunkPartKey = (userId: string, uploadId: string, n: number) => ({
  pk: `USER#${userId}`,
  sk: `CHUNKPART#${uploadId}#${String(n).padStart(5, '0')}`,
});

/**
 * A chunk of a chunked upload staged as an object until its part is made: its size, by its first
 * byte (13 digits, so the chunks sort in order up to S3's 5 TiB). One item per chunk keeps the
 * upload item the same size whatever the chunking; DynamoDB's TTL removes them.
 */
export const chunkStageKey = (userId: string, uploadId: string, start: number) => ({
  pk: `USER#${userId}`,
  sk: `CHUNK#${uploadId}#${String(start).padStart(13, '0')}`,
});

/**
 * A completed upload (presigned or chunked): which file it became, for what its object's key names
 * (the upload) and for a chunked upload's last chunk sent again. Lives a week (DynamoDB's TTL).
 */
export const uploadDoneKey = (userId: string, uploadId: string) => ({
  pk: `USER#${userId}`,
  sk: `UPLOADDONE#${uploadId}`,
});
