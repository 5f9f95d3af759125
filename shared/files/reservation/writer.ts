import { TransactionConditionFailed, transactAsActiveOwner } from '#shared/db/transact';
import { deleteObjects } from '#shared/files/bucket/objects';
import { QuotaExceeded } from '#shared/files/record/stats';
import { type PendingUpload, pendingUploads } from '#shared/files/reservation/pending';
import { releaseWrite, TooManyPending, type UploadWrite } from '#shared/files/reservation/reservation';
import { stagedChunks } from '#shared/files/reservation/staged-chunks';

/**
 * The one writer of the uploads' transactions: every step of every upload kind builds its items
 * (`UploadWrite`: reserve, record, a chunk's progress, release) and hands them here, where they run in
 * one transaction with the owner's check (`transactAsActiveOwner`) and a refusal is read by the step's
 * rule. A refusal for room (the quota, the pending cap) first gives back the owner's expired
 * reservations and, if there were any, tries once more: the reclaiming is here too, since it is
 * releases written the same way.
 */

const needsRoom = (error: unknown) => error instanceof TooManyPending || error instanceof QuotaExceeded;

export async function write(userId: string, step: UploadWrite): Promise<void> {
  for (let reclaimed = false; ; reclaimed = true) {
    try {
      return await commit(userId, step);
    } catch (error) {
      if (reclaimed || !needsRoom(error)) throw error;
      // DynamoDB's TTL is no use for expired reservations: its deletion would drop the item and keep
      // the reservation (and DynamoDB Local never runs it). They are given back when the room is needed.
      const expired = await pendingUploads(userId, new Date());
      if ((await giveBack(userId, expired, { objects: true })) === 0) throw error;
    }
  }
}

async function commit(userId: string, step: UploadWrite): Promise<void> {
  try {
    await transactAsActiveOwner(userId, step.items);
  } catch (error) {
    if (!(error instanceof TransactionConditionFailed)) throw error;
    throw step.refusal?.(error.failedIndexes, error.returnedItems) ?? error;
  }
}

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
