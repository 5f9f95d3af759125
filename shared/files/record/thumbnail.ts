import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documents, tableName } from '#shared/db/client';
import { isConditionFailure } from '#shared/db/conditions';
import { fileKey } from '#shared/db/keys';
import type { Thumbnail } from '#shared/files/model';

/**
 * Records a made thumbnail on its file, only while the file still exists with the bytes it was made
 * from (one conditional UpdateItem). Not a metadata change: `version` and `updatedAt` stay, so an
 * edit in flight is not refused for it. False when the file is gone or has other bytes.
 */
export async function recordThumbnail(
  userId: string,
  fileId: string,
  objectKey: string,
  thumbnail: Thumbnail,
): Promise<boolean> {
  try {
    await documents.send(
      new UpdateCommand({
        TableName: tableName,
        Key: fileKey(userId, fileId),
        UpdateExpression: 'SET thumbnail = :thumbnail',
        ConditionExpression: 'attribute_exists(pk) AND objectKey = :objectKey',
        ExpressionAttributeValues: { ':thumbnail': thumbnail, ':objectKey': objectKey },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}
