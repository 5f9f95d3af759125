import { getItem } from '#shared/db/client';
import { unlessConditionFails } from '#shared/db/expressions/conditions';
import { FILE_PREFIX, fileNameKey } from '#shared/db/keys/files';
import { deleteIn, deleteItem, putIn } from '#shared/db/table-calls';
import type { TransactItem } from '#shared/db/transact';

/**
 * Public file names: each is claimed by an item of its own (`FILENAME#<name>`), the only file item
 * outside its owner's partition. Claims are made and dropped in the transactions that write file
 * items; these are the operations on claims alone.
 */

/** A public name that another file already has; the caller may pick another and retry. */
export class NameTaken extends Error {
  constructor(readonly fileName: string) {
    super(`a file named ${fileName} already exists`);
    this.name = 'NameTaken';
  }
}

/** Who published `name`, and which of their files it is; undefined for a name nobody has. */
export async function findNameClaim(name: string): Promise<{ userId: string; fileId: string } | undefined> {
  const claim = await getItem(fileNameKey(name));
  if (!claim) return undefined;
  return { userId: String(claim.userId), fileId: String(claim.fileId) };
}

/**
 * A rename's two claim items, for the transaction that rewrites the file item: the new name claimed
 * only while nobody has it (the first item: its failed condition is the name taken), the old one
 * released only while it is still this file's. No read comes first, so of two renames to one name
 * exactly one commits.
 */
export function moveNameClaim(
  userId: string,
  fileId: string,
  from: string,
  to: string,
): [claim: TransactItem, release: TransactItem] {
  return [
    putIn({ ...fileNameKey(to), userId, fileId }, { ConditionExpression: 'attribute_not_exists(pk)' }),
    deleteIn(fileNameKey(from), {
      ConditionExpression: 'userId = :userId AND fileId = :fileId',
      ExpressionAttributeValues: { ':userId': userId, ':fileId': fileId },
    }),
  ];
}

/**
 * A claim that leads to nothing (no user has the nil UUID): a password guess at an unknown name reads
 * the items a known name's guess reads, at these keys, so that the two cost the same reads.
 */
export const STAND_IN_CLAIM = {
  userId: '00000000-0000-0000-0000-000000000000',
  fileId: '00000000000000000000000000',
} as const;

/** The attributes of a partition's items that `releaseFileNames` needs besides the keys. */
export const NAME_CLAIM_ATTRIBUTES = ['name'];

/**
 * Deletes the name claims of the file items among `items` (a page of the owner's partition, read
 * with `NAME_CLAIM_ATTRIBUTES`), before those items are deleted: while a file item exists, a retry
 * still finds its claim through it. Each delete is conditional on the claim still pointing at that
 * file, because a released name can be claimed by another user's file before a retry comes round.
 */
export async function releaseFileNames(userId: string, items: Record<string, unknown>[]): Promise<void> {
  const releases = items.flatMap((item) => {
    const sk = String(item.sk);
    if (!sk.startsWith(FILE_PREFIX) || typeof item.name !== 'string') return [];
    return [releaseNameClaim(userId, item.name, sk.slice(FILE_PREFIX.length))];
  });
  // Every delete settles before the batch goes on (or the failure is reported).
  const failure = (await Promise.allSettled(releases)).find((result) => result.status === 'rejected');
  if (failure) throw failure.reason;
}

async function releaseNameClaim(userId: string, name: string, fileId: string): Promise<void> {
  // Released already, or claimed since by another file: not this user's to delete.
  await unlessConditionFails(
    deleteItem(fileNameKey(name), {
      ConditionExpression: 'userId = :userId AND fileId = :fileId',
      ExpressionAttributeValues: { ':userId': userId, ':fileId': fileId },
    }),
  );
}
