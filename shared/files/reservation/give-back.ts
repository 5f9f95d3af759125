import { TransactionConditionFailed, transactAsActiveOwner } from '#shared/db/transact';
import { deleteObjects } from '#shared/files/bucket/objects';
import type { PendingUpload } from '#shared/files/reservation/pending';
import { releaseWrite } from '#shared/files/reservation/reservation';
import { stagedChunks } from '#shared/files/reservation/staged-chunks';

/**
 * Reservations given back: what the writer does when a write needs room (the owner's expired ones),
 * and what a step does with an upload that cannot become a file. A release runs its transaction here
 * rather than through the writer's `write`: it only gives room back, so no refusal of it needs room.
 */

/**
 * Gives back uploads that will not become files (expired, abandoned, refused): each is released
 * (`releaseWrite`: its item consumed and its room given back, in one transaction), then whatever it
 * stored is deleted: a chunked upload's staged chunks and, with `objects`, the object at its final
 * key (the abandoning of incomplete uploads may delete staged chunks only; its S3 multipart upload is
 * aborted by the bucket's lifecycle rule, docs/files.md). An upload already gone (completed or
 * released by a concurrent call) is passed over, its object left to whoever won. Answers how many
 * were given back.
 */
export async function giveBack(
  userId: string,
  uploads: PendingUpload[],
  { objects }: { objects: boolean },
): Promise<number> {
  let released = 0;
  for (const upload of uploads) {
    // Read while the upload is pending: its staged chunks' items name the objects to delete.
    const staged = upload.chunked ? await stagedChunks(userId, upload) : [];
    try {
      await transactAsActiveOwner(userId, releaseWrite(userId, upload).items);
    } catch (error) {
      if (error instanceof TransactionConditionFailed) continue;
      throw error;
    }
    released++;
    await deleteObjects([...(objects ? [upload.objectKey] : []), ...staged.map((object) => object.key)]);
  }
  return released;
}

/** Ends an upload that cannot become a file: its reservation back, its object deleted. */
export async function abandon(userId: string, upload: PendingUpload): Promise<void> {
  await giveBack(userId, [upload], { objects: true });
}
