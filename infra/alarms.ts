import { Duration } from 'aws-cdk-lib';
import {
  Alarm,
  type AlarmProps,
  ComparisonOperator,
  Metric,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { Operation } from 'aws-cdk-lib/aws-dynamodb';
import { FilterPattern, MetricFilter } from 'aws-cdk-lib/aws-logs';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';
import type { ServiceFunction } from './constructs/service-function.ts';

/**
 * The API's access log line. Status and latency are bare numbers (API Gateway always fills them),
 * so metric filters can compare and aggregate them; the query string is left out on purpose: it can
 * carry a file password (`/raw/{name}?pw=`). `ip` is the address of the connection API Gateway
 * received: CloudFront's edge for every request through the distribution, the client's only on the
 * API's own URL; the viewer's address is in the functions' request lines (`clientIp`).
 */
export const ACCESS_LOG_FORMAT = `{${[
  '"requestId":"$context.requestId"',
  '"ip":"$context.identity.sourceIp"',
  '"requestTime":"$context.requestTime"',
  '"method":"$context.httpMethod"',
  '"path":"$context.path"',
  '"routeKey":"$context.routeKey"',
  '"status":$context.status',
  '"responseLength":"$context.responseLength"',
  '"latency":$context.responseLatency',
  '"integrationLatency":"$context.integrationLatency"',
  '"integrationError":"$context.integrationErrorMessage"',
].join(',')}}`;

/** Thresholds an operator may want to move; the defaults are what docs/operations.md explains. */
export interface AlarmThresholds {
  /** Percent of API requests answered 5xx over 5 minutes (with at least 20 requests). */
  serverErrorPercent: number;
  /** p99 of `GET /api/user` as the API measured it, over 5 minutes. */
  userLatencyP99Ms: number;
  /** Refused logins (401 and 429) in 5 minutes. */
  failedLogins: number;
}

export const DEFAULT_THRESHOLDS: AlarmThresholds = {
  serverErrorPercent: 1,
  userLatencyP99Ms: 1000,
  failedLogins: 50,
};

export const FIVE_MINUTES = Duration.minutes(5);

/** The DynamoDB operations the functions use: SystemErrors exists only per operation. */
export const TABLE_OPERATIONS = [
  Operation.GET_ITEM,
  Operation.PUT_ITEM,
  Operation.UPDATE_ITEM,
  Operation.DELETE_ITEM,
  Operation.QUERY,
  Operation.BATCH_GET_ITEM,
  Operation.BATCH_WRITE_ITEM,
  Operation.TRANSACT_WRITE_ITEMS,
];

export type NotifyingAlarmProps = Omit<AlarmProps, 'comparisonOperator' | 'treatMissingData'>;

/** An alarm at or above its threshold that tells the topic when it fires and when it clears. */
export function notifyingAlarm(
  scope: Construct,
  id: string,
  topic: ITopic,
  props: NotifyingAlarmProps,
): Alarm {
  const alarm = new Alarm(scope, id, {
    ...props,
    comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    treatMissingData: TreatMissingData.NOT_BREACHING,
  });
  alarm.addAlarmAction(new SnsAction(topic));
  alarm.addOkAction(new SnsAction(topic));
  return alarm;
}

/**
 * What the Lambda runtime logs when an invocation fails: an uncaught error (`Invoke Error`), a
 * timeout, the runtime dying (out of memory). The handlers answer every error they catch with a 500
 * and log it at ERROR, which does not match: those are the API 5xx alarm's.
 */
export const FAILED_INVOCATION = FilterPattern.anyTerm('Invoke Error', 'Task timed out', 'Runtime exited');

/** An area's failed invocations, all its functions together (one metric, named by the area). */
export const failedInvocations = (namespace: string, area: string) =>
  new Metric({
    namespace,
    metricName: `FailedInvocations-${area}`,
    period: FIVE_MINUTES,
    statistic: 'Sum',
  });

/**
 * One alarm for all of an area's functions, whatever their number: each function's log group feeds
 * the area's one metric through a metric filter (free, and the metric is billed only in the hours it
 * receives data), and one alarm ($0.10 a month) watches it. Per-function alarms on Lambda's own
 * Errors and Throttles cost $0.20 a month per function, and an alarm's metric math may read 10
 * metrics at most. Throttled API calls never run, so they show as the API's 5xx, not here.
 */
export function areaFailureAlarm(
  scope: Construct,
  props: { id: string; area: string; namespace: string; topic: ITopic; functions: Iterable<ServiceFunction> },
): Alarm {
  const metric = failedInvocations(props.namespace, props.area);
  for (const service of props.functions)
    new MetricFilter(service, 'Failures', {
      logGroup: service.logGroup,
      metricNamespace: props.namespace,
      metricName: metric.metricName,
      filterPattern: FAILED_INVOCATION,
      metricValue: '1',
    });
  return notifyingAlarm(scope, props.id, props.topic, {
    metric,
    threshold: 1,
    evaluationPeriods: 1,
    alarmDescription: `Functions of the ${props.area} area: invocations that failed (uncaught error, timeout, out of memory)`,
  });
}
