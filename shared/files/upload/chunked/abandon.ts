import { giveBack } from '#shared/files/reservation/give-back';
import { readSession } from '#shared/files/upload/chunked/session';

/**
 * Abandons the caller's chunked uploads of these ids: each gives its room in the quota back and its
 * staged chunks are deleted (`giveBack`: one transaction that consumes the pending item, so a
 * concurrent completion or reclaim wins or loses whole); its S3 multipart upload is aborted by the
 * bucket's lifecycle rule, as a reclaimed one's (docs/files.md). Ids of no chunked upload of the
 * caller's are passed over. Answers how many were abandoned.
 */
export async function abandonIncomplete(userId: string, ids: string[]): Promise<number> {
  const uploads = [];
  for (const id of new Set(ids)) {
    const upload = await readSession(userId, id);
    if (upload) uploads.push(upload);
  }
  return giveBack(userId, uploads, { objects: false });
}
