import { fileKey } from '#shared/db/keys/files';
import { userKey } from '#shared/db/keys/users';
import { batchGetItems } from '#shared/db/reads';
import type { FileRecord } from '#shared/files/model';
import { fromFileItem } from '#shared/files/record/items';
import type { UserRecord } from '#shared/users/model';
import { fromItem as fromUserItem } from '#shared/users/store';

/**
 * A view page's second read: the owner's user item (its view settings) and the file, in one
 * BatchGetItem. Eventually consistent: the count's condition, not this read, decides.
 */
export async function getFileAndOwner(
  userId: string,
  fileId: string,
): Promise<{ file?: FileRecord; owner?: UserRecord }> {
  const items = await batchGetItems([userKey(userId), fileKey(userId, fileId)]);
  const ownerItem = items.find((item) => item.sk === userKey(userId).sk);
  const fileItem = items.find((item) => item.sk === fileKey(userId, fileId).sk);
  const owner = fromUserItem(ownerItem);
  return { ...(owner ? { owner } : {}), ...(fileItem ? { file: fromFileItem(fileItem) } : {}) };
}
