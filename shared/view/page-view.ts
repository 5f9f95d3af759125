import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documents, tableName } from '#shared/db/client';
import { isConditionFailure } from '#shared/db/conditions';
import { fileKey, userKey } from '#shared/db/keys';
import { batchGetItems } from '#shared/db/reads';
import { type FileRecord, isExpired } from '#shared/files/model';
import { fromFileItem } from '#shared/files/record/items';
import { countFileView, SET_VIEWS_INDEX, viewsIndexValues } from '#shared/files/serve/views';
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

/** A download of `file` would be served now (views left, not past `deletesAt`). */
export const isServable = (file: FileRecord, now = new Date()) =>
  (file.maxViews === null || file.views < file.maxViews) && !isExpired(file, now);

/**
 * Counts one view of a file without a password that the page has just read as `seen`, in one write:
 * the count and its views-index key set together, on condition that the count is still the one read
 * (and, as every count, that the file is there, within `maxViews` and `deletesAt`, unprotected). If
 * another view came in between, the condition fails and the view is counted as `/raw` counts it
 * (`countFileView`: a conditional ADD, then the index write), so concurrent views never pass
 * `maxViews` and none is lost. Undefined when the file may not be viewed.
 */
export async function countSeenView(
  userId: string,
  seen: FileRecord,
  now = new Date(),
): Promise<FileRecord | undefined> {
  const views = seen.views + 1;
  try {
    const result = await documents.send(
      new UpdateCommand({
        TableName: tableName,
        Key: fileKey(userId, seen.id),
        UpdateExpression: `SET #views = :views, ${SET_VIEWS_INDEX}`,
        ConditionExpression:
          'attribute_exists(pk) AND #views = :seen AND (attribute_not_exists(maxViews) OR maxViews >= :views) AND (attribute_not_exists(deletesAt) OR deletesAt > :now) AND attribute_not_exists(passwordHash)',
        ExpressionAttributeNames: { '#views': 'views' },
        ExpressionAttributeValues: {
          ':views': views,
          ':seen': seen.views,
          ...viewsIndexValues(userId, views, seen.id),
          ':now': now.toISOString(),
        },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return fromFileItem(result.Attributes ?? {});
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    return countFileView(userId, seen.id, null, now);
  }
}
