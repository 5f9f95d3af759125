import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';

/**
 * Business and safety metrics as CloudWatch embedded metrics: one JSON line per request that
 * counted something, written to stdout after the answer is built, which CloudWatch turns into
 * metrics (namespace `POWERTOOLS_METRICS_NAMESPACE`, the stack's name; no API call on the request path).
 */
const metrics = new Metrics({
  namespace: process.env.POWERTOOLS_METRICS_NAMESPACE || 'FileService',
  serviceName: 'file-service',
});

export type MetricName =
  | 'LoginSucceeded'
  | 'LoginFailed'
  | 'LoginThrottled'
  | 'FilesUploaded'
  | 'BytesUploaded'
  | 'TokenResets'
  | 'ServerErrors'
  | 'WebhooksDelivered'
  | 'WebhookFailures';

const UNITS: Record<MetricName, (typeof MetricUnit)[keyof typeof MetricUnit]> = {
  LoginSucceeded: MetricUnit.Count,
  LoginFailed: MetricUnit.Count,
  LoginThrottled: MetricUnit.Count,
  FilesUploaded: MetricUnit.Count,
  BytesUploaded: MetricUnit.Bytes,
  TokenResets: MetricUnit.Count,
  ServerErrors: MetricUnit.Count,
  WebhooksDelivered: MetricUnit.Count,
  WebhookFailures: MetricUnit.Count,
};

export function countMetric(name: MetricName, value = 1): void {
  metrics.addMetric(name, UNITS[name], value);
}

/** Writes what the request counted (nothing when it counted nothing). */
export function publishMetrics(): void {
  if (metrics.hasStoredMetrics()) metrics.publishStoredMetrics();
}
