import { Aws, Stack } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  type Alarm,
  Dashboard,
  GraphWidget,
  type IMetric,
  MathExpression,
  Metric,
  TextWidget,
  Unit,
} from 'aws-cdk-lib/aws-cloudwatch';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { FilterPattern, type IFilterPattern, type ILogGroup, MetricFilter } from 'aws-cdk-lib/aws-logs';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import {
  type AlarmThresholds,
  DEFAULT_THRESHOLDS,
  FIVE_MINUTES,
  failedInvocations,
  type NotifyingAlarmProps,
  notifyingAlarm,
  TABLE_OPERATIONS,
} from './alarms.ts';
import type { ServiceFunction } from './constructs/service-function.ts';

export interface MonitoringProps {
  api: HttpApi;
  table: Table;
  accessLogs: ILogGroup;
  /** The parent stack's functions (background ones): an errors-and-throttles alarm each. */
  functions: Iterable<ServiceFunction>;
  /** The areas (nested stacks): their failed invocations are graphed beside the functions'. */
  areas: readonly string[];
  /** Subscribed to the alarm topic when set (it must confirm the subscription e-mail). */
  alarmEmail?: string;
  thresholds?: Partial<AlarmThresholds>;
  /** The background functions' alarms ($0.20 a month each) and the areas'; the API 5xx alarm stays. */
  functionAlarms?: boolean;
  /** `false`: no alarm at all (the topic and the dashboard stay). */
  alarms?: boolean;
  /** Where a background function's events go once Lambda gave up on them: each gets an alarm. */
  failedEventQueues?: { id: string; queue: IQueue }[];
}

/**
 * What an operator watches: alarms on the API's 5xx rate, the background functions' errors and
 * throttles (each area watches its own functions: alarms.ts), DynamoDB throttling and system
 * errors, `GET /api/user` latency and refused logins, all sent to one SNS topic; and a CloudWatch
 * dashboard with the same metrics. Latency and logins come from the API's access log through metric
 * filters, so no request path pays for them.
 */
export class Monitoring extends Construct {
  readonly topic: Topic;
  readonly alarms: Alarm[] = [];
  readonly dashboard: Dashboard;
  private readonly enabled: boolean;

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);
    this.enabled = props.alarms !== false;
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
          graph('Function errors + throttles', [
            ...functionErrors,
            ...props.areas.map((area) => failedInvocations(namespace, area)),
          ]),
        ],
        [
          graph('Logins', ['LoginSucceeded', 'LoginFailed', 'LoginThrottled'].map(business)),
          graph('Uploads (files, bytes)', ['FilesUploaded', 'BytesUploaded'].map(business)),
          graph('Token resets and 5xx answers', ['TokenResets', 'ServerErrors'].map(business)),
        ],
      ],
    });
  }

  private alarm(id: string, props: NotifyingAlarmProps): void {
    if (this.enabled) this.alarms.push(notifyingAlarm(this, id, this.topic, props));
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
