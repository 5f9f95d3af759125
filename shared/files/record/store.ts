import { getItem } from '#shared/db/client';
import { LIVE_USER } from '#shared/db/expressions/conditions';
import { fileKey } from '#shared/db/keys/files';
import { userKey } from '#shared/db/keys/users';
import { batchGetItems } from '#shared/db/reads';
import { checkIn } from '#shared/db/table-calls';
import { type TransactItem, TransactionConditionFailed, transactWrite } from '#shared/db/transact';
import { ServiceError, unauthenticated } from '#shared/errors';
import type { FileRecord } from '#shared/files/model';
import { isFileId } from '#shared/files/names';
import { FOLDER_NOT_FOUND } from '#shared/files/record/folder-membership';
import { fromFileItem } from '#shared/files/record/items';
import { findNameClaim } from '#shared/files/record/name-claims';

/**
 * A file's metadata as the other record modules share it: reads, the transaction every write that
 * creates items runs in, the retries of a versioned write and the errors they report. Creation is
 * `creation.ts`, a PATCH `changes.ts`, deletion `deletion.ts`; counters and quota are `stats.ts`, view
 * counting `serve/view-count.ts`, listings `listing/listing.ts`.
 */

/** A public name that another file already has; the caller may pick another and retry. */
export class NameTaken extends Error {
  constructor(readonly fileName: string) {
    super(`a file named ${fileName} already exists`);
    this.name = 'NameTaken';
  }
}

/**
 * Runs a file transaction that can create items in the owner's partition, together with a check
 * that the owner exists and its deletion has not begun. The deletion marks the user before it reads
 * the partition, so such a write either lands before the mark (and the deletion finds it) or fails:
 * a request authenticated just before the mark gets the 401 its next request would get. Other
 * failed conditions are reported with the indexes of `items`.
 */
export async function transactAsActiveOwner(userId: string, items: TransactItem[]): Promise<void> {
  try {
    await transactWrite([checkIn(userKey(userId), { ConditionExpression: LIVE_USER }), ...items]);
  } catch (error) {
    if (!(error instanceof TransactionConditionFailed)) throw error;
    if (error.failedIndexes.includes(0)) throw unauthenticated();
    throw new TransactionConditionFailed(error.failedIndexes.map((index) => index - 1));
  }
}

export async function getFile(
  userId: string,
  fileId: string,
  options: { consistent?: boolean } = {},
): Promise<FileRecord | undefined> {
  const item = await getItem(fileKey(userId, fileId), options);
  return item ? fromFileItem(item) : undefined;
}

/** Optimistic-lock retries of a file write: the version it was computed from changed meanwhile. */
export const versionRetries = {
  attempts: 5,
  baseMs: 5,
  retryable: (error: unknown) => error instanceof TransactionConditionFailed,
};

/** The folder a file was to go into cannot take files (gone, or being deleted). */
export class FolderClosed extends ServiceError {
  constructor() {
    super('not_found', FOLDER_NOT_FOUND);
  }
}

export async function batchGetFiles(keys: { pk: unknown; sk: unknown }[]): Promise<FileRecord[]> {
  return (await batchGetItems(keys)).map(fromFileItem);
}

/**
 * The caller's own file that a path's `{id}` names: its id or, as Zipline's routes take it, its
 * public name. The id is tried first (a name may have an id's shape, then the name is looked up
 * too); a name another user published is not found, as an unknown one is.
 */
export async function findOwnFile(userId: string, idOrName: string): Promise<FileRecord | undefined> {
  const byId = isFileId(idOrName) ? await getFile(userId, idOrName) : undefined;
  if (byId) return byId;
  const claim = await findNameClaim(idOrName);
  return claim?.userId === userId ? getFile(userId, claim.fileId) : undefined;
}
