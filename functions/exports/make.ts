import type { Context, S3Event } from 'aws-lambda';
import { requestOf, runExport } from '#shared/exports/run';
import { logger } from '#shared/log/logger';

/**
 * S3's notification of an export request (`export-requests/<userId>/<exportId>.json`, written by
 * `POST /api/user/export`; locally the runner feeds it the same event): makes the export's zip. Not
 * an HTTP route: the POST has answered already; the dashboard follows the progress in the listing.
 * Locally there is no deadline (no context): the run is bound by nothing but its files.
 */
export const handler = async (event: S3Event, context?: Context) => {
  const timeLeftMs = () => context?.getRemainingTimeInMillis() ?? Number.POSITIVE_INFINITY;
  const outcomes = [];
  for (const record of event.Records) {
    const key = decodeURIComponent(record.s3.object.key.replace(/\+/g, ' '));
    const request = requestOf(key);
    const outcome = request ? await runExport(request.userId, request.exportId, timeLeftMs) : 'ignored';
    outcomes.push({ key, outcome });
  }
  logger.info('object-event', { records: event.Records.length, outcomes });
  return { outcomes };
};
