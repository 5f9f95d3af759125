import type { Context } from 'aws-lambda';
import { continueDeletions, whileTimeLeft } from '#shared/accounts/deletion';
import { logger } from '#shared/log/logger';
import { SCHEDULED_FUNCTION_SECONDS } from '#shared/routes/background';

/**
 * Finishes the user deletions that `DELETE /api/users/{id}` could not finish within its function's
 * time, started each minute by the stack's schedule (every few seconds by the local runner). Each
 * run works until its own time is nearly up; what is left, the next run does.
 */
export const handler = async (
  _event?: unknown,
  context?: Partial<Pick<Context, 'getRemainingTimeInMillis'>>,
): Promise<{ finished: number; left: number }> => {
  const end = Date.now() + SCHEDULED_FUNCTION_SECONDS * 1000;
  const remainingMs = () => context?.getRemainingTimeInMillis?.() ?? end - Date.now();
  const report = await continueDeletions(whileTimeLeft(remainingMs));
  // A line when a run found something: the runner runs it every few seconds.
  if (report.finished + report.left > 0) logger.info('user deletions', report);
  return report;
};
