import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documents, tableName } from '#shared/db/client';
import { unlessConditionFails } from '#shared/db/conditions';
import { fileKey } from '#shared/db/keys';
import { type FileRecord, isExpired } from '#shared/files/model';
import { viewsIndexKey } from '#shared/files/record/indexing';
import { fromFileItem } from '#shared/files/record/items';
import { findNameClaim, STAND_IN_CLAIM } from '#shared/files/record/name-claims';
import { getFile } from '#shared/files/record/store';

/** Downloads and view pages: finding a public file and counting its views within its limits. */

/**
 * The file published under `name` when a download would be served now (known, not past its
 * `deletesAt`, views left), without counting a view; undefined otherwise. An unknown name reads as
 * much as a known one (its file at `STAND_IN_CLAIM`): the time taken does not tell them apart.
 */
export async function findDownloadable(name: string, now = new Date()): Promise<FileRecord | undefined> {
  const claim = (await findNameClaim(name)) ?? STAND_IN_CLAIM;
  return downloadableFile(claim.userId, claim.fileId, now);
}

/** The file when a download of it would be served now, without counting a view. */
export async function downloadableFile(
  userId: string,
  fileId: string,
  now = new Date(),
): Promise<FileRecord | undefined> {
  const file = await getFile(userId, fileId);
  if (!file) return undefined;
  if (file.maxViews !== null && file.views >= file.maxViews) return undefined;
  if (isExpired(file, now)) return undefined;
  return file;
}

/**
 * Counts one view of the file published under `name`, refusing (undefined) a file that is unknown,
 * past its `deletesAt`, out of views, or whose password hash is not `passwordHash`.
 */
export async function countView(
  name: string,
  passwordHash: string | null,
  now = new Date(),
): Promise<FileRecord | undefined> {
  const claim = await findNameClaim(name);
  return claim && countFileView(claim.userId, claim.fileId, passwordHash, now);
}

/**
 * Counts one view of a file (a download or a view page), refusing (undefined) a file that is gone,
 * past its `deletesAt`, out of views, or whose password hash is not `passwordHash` (null: a file
 * without a password; so a password set meanwhile is never bypassed). The increment is a single
 * conditional ADD, so concurrent views never exceed `maxViews`; the views index entry follows in a
 * second write that only the latest count can make.
 */
export async function countFileView(
  userId: string,
  fileId: string,
  passwordHash: string | null,
  now = new Date(),
): Promise<FileRecord | undefined> {
  const result = await unlessConditionFails(
    documents.send(
      new UpdateCommand({
        TableName: tableName,
        Key: fileKey(userId, fileId),
        UpdateExpression: 'ADD #views :one',
        ConditionExpression: `attribute_exists(pk) AND (attribute_not_exists(maxViews) OR #views < maxViews) AND (attribute_not_exists(deletesAt) OR deletesAt > :now) AND ${passwordHash === null ? 'attribute_not_exists(passwordHash)' : 'passwordHash = :passwordHash'}`,
        ExpressionAttributeNames: { '#views': 'views' },
        ExpressionAttributeValues: {
          ':one': 1,
          ':now': now.toISOString(),
          ...(passwordHash === null ? {} : { ':passwordHash': passwordHash }),
        },
        ReturnValues: 'ALL_NEW',
      }),
    ),
  );
  if (!result) return undefined;
  const updated = fromFileItem(result.Attributes ?? {});
  // A later view already wrote a newer count; its own second write positions the file.
  await unlessConditionFails(
    documents.send(
      new UpdateCommand({
        TableName: tableName,
        Key: fileKey(userId, fileId),
        UpdateExpression: `SET ${SET_VIEWS_INDEX}`,
        ConditionExpression: '#views = :views',
        ExpressionAttributeNames: { '#views': 'views' },
        ExpressionAttributeValues: {
          ...viewsIndexValues(userId, updated.views, fileId),
          ':views': updated.views,
        },
      }),
    ),
  );
  return updated;
}

/**
 * What positions a file in the views index after its `views`-th view, for both view counts' SET:
 * the first view also brings it into the index (sparse: no entry at 0 views).
 */
export const SET_VIEWS_INDEX = 'gsi9pk = :viewsPartition, gsi9sk = :viewsSortKey';
export function viewsIndexValues(userId: string, views: number, fileId: string) {
  const keys = viewsIndexKey(userId, views, fileId);
  return { ':viewsPartition': keys.gsi9pk, ':viewsSortKey': keys.gsi9sk };
}
