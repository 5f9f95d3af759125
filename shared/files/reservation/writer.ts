import { TransactionConditionFailed, transactAsActiveOwner } from '#shared/db/transact';
import { giveBack } from '#shared/files/reservation/give-back';
import { pendingUploads } from '#shared/files/reservation/pending';
import { TooManyPending, type UploadWrite } from '#shared/files/reservation/reservation';
import { QuotaExceeded } from '#shared/quota';

/**
 * The one writer of the uploads' transactions: every step of every upload kind builds its items
 * (`UploadWrite`: reserve, a chunk's progress, record) and hands them here, where they run in
 * one transaction with the owner's check (`transactAsActiveOwner`) and a refusal is read by the step's
 * rule. A refusal for room (the quota, the pending cap) first gives back the owner's expired
 * reservations (`give-back.ts`) and, if there were any, tries once more.
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
