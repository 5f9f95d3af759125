import type { S3Event } from 'aws-lambda';
import { logger } from '#shared/log/logger';
import { makeThumbnail } from '#shared/thumbnails/make';

/**
 * S3's notifications on `files/` (in AWS; locally the runner feeds it the same events after each
 * request S3 would notify): one WebP thumbnail per image file, whichever upload path stored it (a
 * direct upload's object creation, a chunked upload's CompleteMultipartUpload, a presigned upload's
 * completion retagging its object). Not an HTTP route: nothing waits for it, so a thumbnail that
 * cannot be made never fails an upload. A file not recorded yet throws, and Lambda's asynchronous
 * retries come back for it.
 */
export const handler = async (event: S3Event) => {
  const outcomes = [];
  for (const record of event.Records) {
    // S3 sends keys URL-encoded, spaces as `+`.
    const key = decodeURIComponent(record.s3.object.key.replace(/\+/g, ' '));
    const outcome = await makeThumbnail(key, record.eventName);
    if ('failed' in outcome) logger.warn('thumbnail not made', { key, reason: outcome.failed });
    outcomes.push({ key, event: record.eventName, ...outcome });
  }
  // One line per event, as the HTTP functions write one per request.
  logger.info('object-event', { records: event.Records.length, outcomes });
  return { outcomes };
};
