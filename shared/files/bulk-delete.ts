import { type BulkResult, forEachFile } from '#shared/files/bulk';
import { deleteFile } from '#shared/files/serve/access';

/**
 * `DELETE /api/user/files/transaction`: each of the caller's files deleted as a file DELETE deletes
 * it (bytes, thumbnail, counters, name claim, folder and tag memberships). Apart from `bulk.ts`, which
 * the folder routes and the bulk PATCH import, because it brings the S3 client with it.
 */
export function deleteFiles(userId: string, ids: string[]): Promise<BulkResult> {
  return forEachFile(ids, async (id) => {
    await deleteFile(userId, id);
    return true;
  });
}
