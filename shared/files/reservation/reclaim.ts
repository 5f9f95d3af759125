import { deleteObjects } from '#shared/files/bucket/objects';
import { pendingUploads, releaseUpload } from '#shared/files/reservation/pending';
import { stagedChunks } from '#shared/files/reservation/staged-chunks';

/**
 * Gives back the room of the user's presigned uploads whose reservation has run out, and deletes
 * whatever their URLs stored. Each release is a transaction that consumes the pending item, so a
 * concurrent completion or reclaim of the same upload makes it a no-op (and its object is left to
 * whoever won). Answers how many were reclaimed.
 *
 * DynamoDB's TTL is no use here: its deletion would drop the item and keep the reservation, and
 * DynamoDB Local never runs it at all. Reclaiming happens when the room is needed instead.
 */
export async function reclaimExpiredUploads(userId: string, now = new Date()): Promise<number> {
  let reclaimed = 0;
  for (const upload of await pendingUploads(userId, now)) {
    if (!(await releaseUpload(userId, upload))) continue;
    reclaimed++;
    // A chunked upload's staged chunks too (its S3 multipart upload is aborted by the lifecycle rule).
    const staged = upload.chunked ? await stagedChunks(userId, upload) : [];
    await deleteObjects([upload.objectKey, ...staged.map((object) => object.key)]);
  }
  return reclaimed;
}

/**
 * Runs a write that needs room in the user's quota or pending uploads; when it is `refused`, gives
 * back expired reservations and, if there were any, tries once more.
 */
export async function withRoom<T>(
  userId: string,
  write: () => Promise<T>,
  refused: (error: unknown) => boolean,
): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (!refused(error) || (await reclaimExpiredUploads(userId)) === 0) throw error;
    return write();
  }
}
