import { chunkStageKey } from '#shared/db/keys/uploads';
import { putIn, queryItems } from '#shared/db/table-calls';
import type { TransactItem } from '#shared/db/transact';
import { stagedChunkKey, UPLOAD_LEFTOVERS_DAYS } from '#shared/files/layout';
import type { ChunkProgress, PendingUpload } from '#shared/files/reservation/pending';

/**
 * Chunks too small for an S3 part wait as objects (`uploads/<userId>/<uploadId>/<start>`) until a
 * part's worth has arrived; each has an item of its own recording its size, written in the
 * transaction that moves the upload on. The upload item itself only says where the part in the
 * making starts, so it keeps its size whatever the chunking, and no chunk rewrites a growing list.
 */

/**
 * The smallest chunk but the last: a 5 MiB part is then at most 80 staged objects, all read back
 * within the function that makes the part, and deleted in one DeleteObjects (1,000 keys at most).
 */
export const MIN_CHUNK_BYTES = 64 * 1024;

/** Staged chunk items outlive the longest upload session (DynamoDB's TTL removes them). */
const STAGE_ITEM_SECONDS = UPLOAD_LEFTOVERS_DAYS * 86_400;

export interface StagedChunk {
  key: string;
  size: number;
}

/** Where the part in the making starts (items of earlier versions list their staged chunks). */
export function partStartOf(progress: ChunkProgress): number {
  if (progress.partStart !== undefined) return progress.partStart;
  return progress.received - (progress.staged ?? []).reduce((sum, chunk) => sum + chunk.size, 0);
}

/** The transaction item recording a chunk staged at `start`. */
export const stagedChunkItem = (
  userId: string,
  uploadId: string,
  start: number,
  size: number,
  now = Date.now(),
): TransactItem =>
  putIn({
    ...chunkStageKey(userId, uploadId, start),
    size,
    expiresAt: Math.floor(now / 1000) + STAGE_ITEM_SECONDS,
  });

/** The chunks staged for the part in the making, in order (consistent reads). */
export async function stagedChunks(userId: string, upload: PendingUpload): Promise<StagedChunk[]> {
  const progress = upload.chunked as ChunkProgress;
  if (progress.staged) return progress.staged;
  const from = partStartOf(progress);
  if (from >= progress.received) return [];
  const staged: StagedChunk[] = [];
  let exclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await queryItems({
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: {
        ':pk': chunkStageKey(userId, upload.id, 0).pk,
        ':from': chunkStageKey(userId, upload.id, from).sk,
        ':to': chunkStageKey(userId, upload.id, progress.received - 1).sk,
      },
      ConsistentRead: true,
      ExclusiveStartKey: exclusiveStartKey,
    });
    for (const item of page.Items ?? []) {
      const start = Number(String(item.sk).slice(-13));
      staged.push({ key: stagedChunkKey(userId, upload.id, start), size: Number(item.size) });
    }
    exclusiveStartKey = page.LastEvaluatedKey;
  } while (exclusiveStartKey);
  return staged;
}
