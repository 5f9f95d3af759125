import { getItem } from '#shared/db/client';
import { fileKey } from '#shared/db/keys/files';
import { batchGetItems } from '#shared/db/reads';
import { TransactionConditionFailed } from '#shared/db/transact';
import type { FileRecord } from '#shared/files/model';
import { isFileId } from '#shared/files/names';
import { fromFileItem } from '#shared/files/record/items';
import { findNameClaim } from '#shared/files/record/name-claims';

/**
 * A file's metadata as the other record modules share it: its reads and the retries of a versioned
 * write. Every write that creates items runs in the owner-checked transaction
 * (`transactAsActiveOwner`, db/transact.ts). Creation is `reservation/creation.ts`, a PATCH
 * `changes.ts`, deletion `deletion.ts`; counters and quota are `stats.ts`, view counting
 * `serve/view-count.ts`, listings `listing/listing.ts`.
 */

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
