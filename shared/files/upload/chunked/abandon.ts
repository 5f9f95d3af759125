import { deleteObjects } from '#shared/files/bucket/objects';
import { releaseUpload } from '#shared/files/reservation/reservation';
import { stagedChunks } from '#shared/files/reservation/staged-chunks';
import { readSession } from '#shared/files/upload/chunked/session';

/**
 * Abandons the caller's chunked uploads of these ids: each gives its room in the quota back (one
 * transaction that consumes the pending item, so a concurrent completion or reclaim wins or loses
 * whole), then its staged chunks are deleted; its S3 multipart upload is aborted by the bucket's
 * lifecycle rule, as a reclaimed one's (docs/files.md). Ids of no chunked upload of the caller's are
 * passed over. Answers how many were abandoned.
 */
export async function abandonIncomplete(userId: string, ids: string[]): Promise<number> {
  let count = 0;
  for (const id of new Set(ids)) {
    const upload = await readSession(userId, id);
    if (!upload) continue;
    const staged = await stagedChunks(userId, upload);
    if (!(await releaseUpload(userId, upload))) continue;
    count++;
    await deleteObjects(staged.map((object) => object.key));
  }
  return count;
}
