import { isConditionFailure } from '#shared/db/expressions/conditions';
import { UpdateBuilder } from '#shared/db/expressions/update';
import { fileKey } from '#shared/db/keys/files';
import { updateItem } from '#shared/db/table-calls';
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
    const update = new UpdateBuilder().set('thumbnail', thumbnail);
    update.when(`attribute_exists(pk) AND ${update.name('objectKey')} = ${update.value(objectKey)}`);
    await updateItem(fileKey(userId, fileId), update.build());
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}
