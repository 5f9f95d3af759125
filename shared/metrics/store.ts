import { UpdateBuilder } from '#shared/db/expressions/update';
import { METRICS_PARTITION, metricsDayKey } from '#shared/db/keys/instance';
import { queryPages, updateItem } from '#shared/db/table-calls';
import { dayOf, type Metric, type MetricData } from '#shared/metrics/model';

/**
 * The daily figures' items (keys/instance.ts `metricsDayKey`): `DAY#<YYYY-MM-DD>` in the one `METRICS`
 * partition, holding the Metric as Zipline shapes it.
 */

/** The most days one answer holds (newest first): about 2.7 MB of JSON, inside Lambda's 6 MB. */
export const MAX_METRIC_DAYS = 1000;

/**
 * Writes the day's figures: the same key whatever the time of the run, so a second run the same
 * day replaces the figures (and `updatedAt`) and keeps the day's `createdAt`. True when it was the
 * day's first run.
 */
export async function recordDailyMetric(day: string, data: MetricData, now: Date): Promise<boolean> {
  const update = new UpdateBuilder()
    .set('id', day)
    .set('data', data)
    .set('updatedAt', now.toISOString())
    .setIfAbsent('createdAt', now.toISOString())
    .build();
  const result = await updateItem(metricsDayKey(day), { ...update, ReturnValues: 'UPDATED_OLD' });
  return result.Attributes?.createdAt === undefined;
}

const fromItem = (item: Record<string, unknown>): Metric => ({
  id: String(item.id),
  createdAt: String(item.createdAt),
  updatedAt: String(item.updatedAt),
  data: item.data as MetricData,
});

/**
 * The days whose figures were first taken within [from, to] (Zipline filters its metrics on
 * `createdAt` so), newest first; every day kept when no range is given. One Query on the partition's
 * day range (eventually consistent: a day's figures change once a day), at most `MAX_METRIC_DAYS`.
 */
export async function readMetrics(range?: { from: Date; to: Date }): Promise<Metric[]> {
  const days = range
    ? {
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
        ExpressionAttributeValues: {
          ':pk': METRICS_PARTITION,
          ':from': metricsDayKey(dayOf(range.from)).sk,
          ':to': metricsDayKey(dayOf(range.to)).sk,
        },
      }
    : { KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': METRICS_PARTITION } };
  const metrics: Metric[] = [];
  const pages = queryPages({ ...days, ScanIndexForward: false });
  for await (const page of pages) {
    for (const item of page.Items ?? []) {
      const metric = fromItem(item);
      const created = Date.parse(metric.createdAt);
      if (range && (created < range.from.getTime() || created > range.to.getTime())) continue;
      metrics.push(metric);
      if (metrics.length === MAX_METRIC_DAYS) return metrics;
    }
  }
  return metrics;
}
