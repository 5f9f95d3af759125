import { Aws, Duration, Stack } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  Alarm,
  type AlarmProps,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  type IMetric,
  MathExpression,
  Metric,
  TextWidget,
  TreatMissingData,
  Unit,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { Operation, type Table } from 'aws-cdk-lib/aws-dynamodb';
import { FilterPattern, type IFilterPattern, type ILogGroup, MetricFilter } from 'aws-cdk-lib/aws-logs';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
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

/** The DynamoDB operations the functions use: SystemErrors exists only per operation. */
const TABLE_OPERATIONS = [
  Operation.GET_ITEM,
  Operation.PUT_ITEM,
  Operation.UPDATE_ITEM,
  Operation.DELETE_ITEM,
  Operation.QUERY,
  Operation.BATCH_GET_ITEM,
  Operation.BATCH_WRITE_ITEM,
  Operation.TRANSACT_WRITE_ITEMS,
];

export interface MonitoringProps {
  api: HttpApi;
  table: Table;
  accessLogs: ILogGroup;
  functions: Iterable<ServiceFunction>;
  /** Subscribed to the alarm topic when set (it must confirm the subscription e-mail). */
  alarmEmail?: string;
  thresholds?: Partial<AlarmThresholds>;
  /** One errors-and-throttles alarm per function ($0.20 a month each); the API 5xx alarm stays. */
  functionAlarms?: boolean;
  /** Where a background function's events go once Lambda gave up on them: each gets an alarm. */
  failedEventQueues?: { id: string; queue: IQueue }[];
}

const FIVE_MINUTES = Duration.minutes(5);

/**
 * What an operator watches: alarms on the API's 5xx rate, every function's errors and throttles,
 * DynamoDB throttling and system errors, `GET /api/user` latency and refused logins, all sent to one
 * SNS topic; and a CloudWatch dashboard with the same metrics. Latency and logins come from the
 * API's access log through metric filters, so no request path pays for them.
 */
export class Monitoring extends Construct {
  readonly topic: Topic;
  readonly alarms: Alarm[] = [];
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);
    const thresholds = { ...DEFAULT_THRESHOLDS, ...props.thresholds };
    const namespace = Stack.of(this).stackName;
    this.topic = new Topic(this, 'Alarms', { displayName: 'File service alarms', enforceSSL: true });
    if (props.alarmEmail) this.topic.addSubscription(new EmailSubscription(props.alarmEmail));

    const requests = props.api.metricCount({ period: FIVE_MINUTES, statistic: 'Sum' });
    const serverErrors = props.api.metricServerError({ period: FIVE_MINUTES, statistic: 'Sum' });
    const serverErrorRate = new MathExpression({
      label: 'API 5xx (% of requests)',
      expression: 'IF(requests >= 20, 100 * errors / requests, 0)',
      usingMetrics: { requests, errors: serverErrors },
      period: FIVE_MINUTES,
    });
    this.alarm('ApiServerErrors', {
      metric: serverErrorRate,
      threshold: thresholds.serverErrorPercent,
      evaluationPeriods: 1,
      alarmDescription: `More than ${thresholds.serverErrorPercent}% of API requests answered 5xx in 5 minutes`,
    });

    // Each expression names its metrics apart: the dashboard graphs them all together.
    const functionErrors = [...props.functions].map((service, index) => {
      const fn = service.function;
      const failures = new MathExpression({
        label: service.node.id,
        expression: `errors${index} + throttles${index}`,
        usingMetrics: {
          [`errors${index}`]: fn.metricErrors({ period: FIVE_MINUTES, statistic: 'Sum' }),
          [`throttles${index}`]: fn.metricThrottles({ period: FIVE_MINUTES, statistic: 'Sum' }),
        },
        period: FIVE_MINUTES,
      });
      if (props.functionAlarms !== false)
        this.alarm(`${service.node.id}Errors`, {
          metric: failures,
          threshold: 1,
          evaluationPeriods: 1,
          alarmDescription: `${service.node.id}: invocations that failed (uncaught error, timeout) or were throttled`,
        });
      return failures;
    });

    for (const { id: functionId, queue } of props.failedEventQueues ?? [])
      this.alarm(`${functionId}FailedEvents`, {
        metric: queue.metricApproximateNumberOfMessagesVisible({
          period: FIVE_MINUTES,
          statistic: 'Maximum',
        }),
        threshold: 1,
        evaluationPeriods: 1,
        alarmDescription: `${functionId}: an event failed three times and waits in its queue (docs/operations.md)`,
      });

    const tableMetric = (metricName: string) =>
      new Metric({
        namespace: 'AWS/DynamoDB',
        metricName,
        dimensionsMap: { TableName: props.table.tableName },
        period: FIVE_MINUTES,
        statistic: 'Sum',
      });
    const throttled = new MathExpression({
      label: 'DynamoDB throttle events',
      expression: 'reads + writes',
      usingMetrics: { reads: tableMetric('ReadThrottleEvents'), writes: tableMetric('WriteThrottleEvents') },
      period: FIVE_MINUTES,
    });
    this.alarm('TableThrottles', {
      metric: throttled,
      threshold: 1,
      evaluationPeriods: 1,
      alarmDescription: 'DynamoDB throttled reads or writes of the table (or of an index feeding it)',
    });
    const systemErrors = props.table.metricSystemErrorsForOperations({
      operations: TABLE_OPERATIONS,
      period: FIVE_MINUTES,
    });
    this.alarm('TableSystemErrors', {
      metric: systemErrors,
      threshold: 1,
      evaluationPeriods: 1,
      alarmDescription: 'DynamoDB answered requests with internal server errors',
    });

    const userLatency = this.accessLogMetric(props.accessLogs, namespace, 'UserGetLatency', {
      pattern: FilterPattern.stringValue('$.routeKey', '=', 'GET /api/user'),
      value: '$.latency',
      unit: Unit.MILLISECONDS,
    }).with({ statistic: 'p99', period: FIVE_MINUTES, label: 'GET /api/user p99 (ms)' });
    this.alarm('UserLatency', {
      metric: userLatency,
      threshold: thresholds.userLatencyP99Ms,
      evaluationPeriods: 3,
      datapointsToAlarm: 2,
      alarmDescription: `p99 of GET /api/user above ${thresholds.userLatencyP99Ms} ms in two of three 5-minute periods`,
    });

    // What the functions count as embedded metrics (shared/log/metrics.ts), per 5 minutes.
    const business = (metricName: string) =>
      new Metric({
        namespace,
        metricName,
        dimensionsMap: { service: 'file-service' },
        period: FIVE_MINUTES,
        statistic: 'Sum',
      });
    // The login function's own counts: refused passwords and throttled attempts.
    const failedLogins = new MathExpression({
      expression: 'FILL(failed, 0) + FILL(throttled, 0)',
      usingMetrics: { failed: business('LoginFailed'), throttled: business('LoginThrottled') },
      period: FIVE_MINUTES,
      label: 'Refused logins (failed + throttled)',
    });
    this.alarm('FailedLogins', {
      metric: failedLogins,
      threshold: thresholds.failedLogins,
      evaluationPeriods: 1,
      alarmDescription: `More than ${thresholds.failedLogins} refused logins in 5 minutes (password guessing?)`,
    });

    this.dashboard = new Dashboard(this, 'Dashboard', {
      // Dashboard names are account-wide: the stack's name and region make it unique.
      dashboardName: `${namespace}-${Aws.REGION}-operations`,
      widgets: [
        [
          new TextWidget({
            markdown: '# File service\nAlarms and what to do: docs/operations.md',
            width: 24,
            height: 2,
          }),
        ],
        [
          graph('API requests and 5xx', [requests, serverErrors]),
          graph('API 5xx rate (%)', [serverErrorRate]),
          graph('GET /api/user p99 (ms)', [userLatency]),
        ],
        [
          graph('Refused logins', [failedLogins]),
          graph('DynamoDB throttles and system errors', [throttled, systemErrors]),
          graph('Function errors + throttles', functionErrors),
        ],
        [
          graph('Logins', ['LoginSucceeded', 'LoginFailed', 'LoginThrottled'].map(business)),
          graph('Uploads (files, bytes)', ['FilesUploaded', 'BytesUploaded'].map(business)),
          graph('Token resets and 5xx answers', ['TokenResets', 'ServerErrors'].map(business)),
        ],
      ],
    });
  }

  private alarm(id: string, props: Omit<AlarmProps, 'comparisonOperator' | 'treatMissingData'>): void {
    const alarm = new Alarm(this, id, {
      ...props,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    alarm.addAlarmAction(new SnsAction(this.topic));
    alarm.addOkAction(new SnsAction(this.topic));
    this.alarms.push(alarm);
  }

  private accessLogMetric(
    logGroup: ILogGroup,
    namespace: string,
    metricName: string,
    filter: { pattern: IFilterPattern; value: string; unit: Unit },
  ): Metric {
    new MetricFilter(this, `${metricName}Filter`, {
      logGroup,
      metricNamespace: namespace,
      metricName,
      filterPattern: filter.pattern,
      metricValue: filter.value,
      unit: filter.unit,
    });
    return new Metric({ namespace, metricName });
  }
}

function graph(title: string, metrics: IMetric[]): GraphWidget {
  return new GraphWidget({ title, left: metrics, width: 8, height: 6 });
}
