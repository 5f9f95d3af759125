import { forEachConcurrently } from '#shared/concurrency';
import { EXPIRY_INDEX, expiryDueBefore, expiryPartitions, fileKeyParts } from '#shared/db/keys/files';
import { queryPages } from '#shared/db/table-calls';
import { ServiceError } from '#shared/errors';
import { deleteFileObject } from '#shared/files/bucket/objects';
import { isExpired } from '#shared/files/model';
import { deleteFileRecordIf } from '#shared/files/record/deletion';
import { isPopular } from '#shared/files/serve/popular-views';
import { deleteViewCounters } from '#shared/views/cleanup';

/**
 * The expiry sweep: deletes every file past its `deletesAt`, found through the sparse expiry index
 * (no scan), as a DELETE would: metadata, name claim and the owner's counters in one transaction,
 * then the bytes and the thumbnail, and a popular file's view counters (their deletion takes their
 * views out of the owner's totals, docs/stats.md). Each file is judged again on a consistent read and deleted on
 * condition of the version judged, so a PATCH that moves `deletesAt` meanwhile keeps the file, and a
 * file deleted meanwhile is left alone: running the sweep twice, or beside either, changes nothing
 * more. (This module loads the S3 client: only the sweep function imports it.)
 */

export interface SweepReport {
  /** Files deleted. */
  expired: number;
  /** Entries that were no longer due: deleted, given a later `deletesAt`, or their owner leaving. */
  skipped: number;
  /** Files whose deletion failed (logged by the caller; the next sweep tries them again). */
  failed: { fileId: string; error: unknown }[];
}

/** Files handled at once: each is a read, a transaction and a DeleteObjects. */
const CONCURRENCY = 8;

/**
 * Entries read from each index partition per run: up to 2,000 files a run across the 8 partitions.
 * A larger backlog waits for the next run (listings hide those files meanwhile).
 */
const MAX_PER_PARTITION = 250;

/** The files due at `now`, read from each partition of the expiry index, oldest first. */
async function dueFiles(now: Date): Promise<{ userId: string; fileId: string }[]> {
  const perPartition = await Promise.all(
    expiryPartitions().map(async (partition) => {
      const found: { userId: string; fileId: string }[] = [];
      const pages = queryPages(
        {
          IndexName: EXPIRY_INDEX,
          KeyConditionExpression: `${EXPIRY_INDEX}pk = :pk AND ${EXPIRY_INDEX}sk < :due`,
          ExpressionAttributeValues: { ':pk': partition, ':due': expiryDueBefore(now.toISOString()) },
        },
        MAX_PER_PARTITION,
      );
      for await (const page of pages) {
        for (const entry of page.Items ?? []) found.push(fileKeyParts(entry as { pk: unknown; sk: unknown }));
        if (found.length >= MAX_PER_PARTITION) break;
      }
      return found.slice(0, MAX_PER_PARTITION);
    }),
  );
  return perPartition.flat();
}

export async function sweepExpiredFiles(now = new Date()): Promise<SweepReport> {
  const report: SweepReport = { expired: 0, skipped: 0, failed: [] };
  const due = await dueFiles(now);
  await forEachConcurrently(due, CONCURRENCY, async ({ userId, fileId }) => {
    try {
      const file = await deleteFileRecordIf(userId, fileId, (current) => isExpired(current, now));
      if (!file) {
        report.skipped++;
        return;
      }
      await deleteFileObject(file);
      if (isPopular(file)) await deleteViewCounters('file', [file.id]);
      report.expired++;
    } catch (error) {
      // The owner's deletion has begun (it deletes the file itself).
      if (error instanceof ServiceError && error.kind === 'unauthenticated') report.skipped++;
      else report.failed.push({ fileId, error });
    }
  });
  return report;
}
