import { logger } from '#shared/log/logger';
import { collectInstanceMetrics } from '#shared/metrics/collect';
import { dayOf } from '#shared/metrics/model';
import { recordDailyMetric } from '#shared/metrics/store';

/**
 * The instance's figures for `GET /api/stats`, started once a day by the stack's schedule (every few
 * seconds by the local runner): read the instance (metrics/collect.ts), write the day's item. A
 * second run the same day rewrites that item; a missed day is a day without a point.
 */
export const handler = async (): Promise<{ day: string; users: number; files: number; urls: number }> => {
  const now = new Date();
  const data = await collectInstanceMetrics();
  const day = dayOf(now);
  const first = await recordDailyMetric(day, data, now);
  const summary = { day, users: data.users, files: data.files, urls: data.urls };
  // A line for the day's first run: the local runner runs it every few seconds.
  if (first) logger.info('daily metrics', summary);
  return summary;
};
