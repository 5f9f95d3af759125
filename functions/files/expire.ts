import { sweepExpiredFiles } from '#shared/files/expiry/sweep';
import { loggableError, logger } from '#shared/log/logger';

/**
 * The expiry sweep, started each minute by the stack's schedule (and every few seconds by the local
 * runner). A file that could not be deleted is logged and left for the next run; the run then fails
 * too, so the function's error alarm sees it.
 */
export const handler = async (): Promise<{ expired: number; skipped: number; failed: number }> => {
  const report = await sweepExpiredFiles();
  for (const { fileId, error } of report.failed) {
    logger.error('expired file not deleted', {
      fileId,
      error: loggableError(error),
    });
  }
  const summary = { expired: report.expired, skipped: report.skipped, failed: report.failed.length };
  // A line when a run found something: the runner sweeps every few seconds, and Lambda's own REPORT
  // line already marks each run in AWS.
  if (summary.expired + summary.skipped + summary.failed > 0) logger.info('expiry sweep', summary);
  if (summary.failed > 0) throw new Error(`${summary.failed} expired files could not be deleted`);
  return summary;
};
