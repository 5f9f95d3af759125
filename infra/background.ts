import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import {
  CfnEventSourceMapping,
  type CfnFunction,
  type IDestination,
  type IFunction,
} from 'aws-cdk-lib/aws-lambda';
import { type Bucket, EventType } from 'aws-cdk-lib/aws-s3';
import { LambdaDestination } from 'aws-cdk-lib/aws-s3-notifications';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import type { ObjectEventType } from '#shared/routes/background';
import type { AccessRole } from './constructs/access-role.ts';
import type { FunctionSpec } from './functions.ts';

/** The route table's S3 event names as CDK's notification types. */
const S3_EVENT_TYPES: Record<ObjectEventType, EventType> = {
  's3:ObjectCreated:*': EventType.OBJECT_CREATED,
  's3:ObjectTagging:Put': EventType.OBJECT_TAGGING_PUT,
};

/**
 * Reserved concurrency of the functions nothing waits for (docs/operations.md, "Concurrency"). A
 * schedule (the sweep, the deletion worker): one run at a time, whatever delays a run (the daily
 * metrics reserve none: `unreserved`, routes/background.ts). Thumbnails:
 * a bulk image upload queues its events (Lambda keeps them up to six hours) instead of taking 1 GB
 * functions from the pool every API function shares; 10 at once make about 300 previews a minute.
 * An account keeps at least 100 unreserved, so these 12 (two schedules, ten thumbnails) need a
 * concurrency quota of 112 or more: a new account with less deploys with
 * `-c reservedConcurrency=false`.
 */
export const RESERVED_CONCURRENCY = { scheduled: 1, objectEvents: 10 } as const;

/** How long an object event that keeps failing is kept for a look (SQS's longest). */
export const FAILED_EVENT_RETENTION = Duration.days(14);

export interface BackgroundProps {
  spec: FunctionSpec;
  fn: IFunction;
  /** The function's access class: it may send to its failed-events queue. */
  access: AccessRole;
  bucket: Bucket;
  /** False: no reservation (accounts whose concurrency quota is under 112). */
  reserveConcurrency: boolean;
}

/**
 * What happens when an asynchronous invocation of a function other functions invoke fails (the
 * webhook deliverer): Lambda runs it twice more (about 1 and 2 minutes later), keeps an event at most
 * an hour while throttled, then it lands in a queue with its error, behind the same alarm as the
 * object events'. Returns that queue.
 */
export function startInvokedFunction(
  scope: Construct,
  props: Pick<BackgroundProps, 'spec' | 'fn' | 'access'>,
): Queue {
  const failed = new Queue(scope, `${props.spec.id}FailedEvents`, {
    retentionPeriod: FAILED_EVENT_RETENTION,
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
  });
  props.access.sendsFailedEventsTo(failed);
  const onFailure: IDestination = { bind: () => ({ destination: failed.queueArn }) };
  props.fn.configureAsyncInvoke({ retryAttempts: 2, maxEventAge: Duration.hours(1), onFailure });
  return failed;
}

/**
 * Starts a background function (a schedule, or the bucket's object events) and says what happens
 * when a run fails. Returns the queue its failed events land in, if it has one.
 */
export function startBackgroundFunction(scope: Construct, props: BackgroundProps): Queue | undefined {
  const { spec, fn } = props;
  const reserve = (count: number) => {
    if (props.reserveConcurrency) (fn.node.defaultChild as CfnFunction).reservedConcurrentExecutions = count;
  };
  if (spec.everyMinutes !== undefined) {
    // At most one run a minute: EventBridge does not retry its delivery, and Lambda neither retries
    // a failed run (its default is twice, which made up to three sweeps overlap and count their
    // errors three times) nor keeps an event past a minute (a throttled one waits for the next).
    new Rule(scope, `${spec.id}Schedule`, {
      schedule: Schedule.rate(Duration.minutes(spec.everyMinutes)),
      targets: [new LambdaFunction(fn, { retryAttempts: 0 })],
    });
    fn.configureAsyncInvoke({ retryAttempts: 0, maxEventAge: Duration.minutes(1) });
    if (!spec.unreserved) reserve(RESERVED_CONCURRENCY.scheduled);
    return undefined;
  }
  if (!spec.objectEvents) return undefined;
  // S3 invokes it asynchronously; Lambda retries a failed invocation twice (a file not yet recorded
  // when its bytes' event arrives is picked up again). An event that fails all three times lands
  // in a queue with the error, behind an alarm, instead of vanishing.
  const failed = new Queue(scope, `${spec.id}FailedEvents`, {
    retentionPeriod: FAILED_EVENT_RETENTION,
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
  });
  props.access.sendsFailedEventsTo(failed);
  const onFailure: IDestination = { bind: () => ({ destination: failed.queueArn }) };
  fn.configureAsyncInvoke({ retryAttempts: 2, onFailure });
  const { prefix, events } = spec.objectEvents;
  for (const event of events) {
    props.bucket.addEventNotification(S3_EVENT_TYPES[event], new LambdaDestination(fn), { prefix });
  }
  if (!spec.longRun) reserve(RESERVED_CONCURRENCY.objectEvents);
  return failed;
}

/**
 * Feeds a function from the table's stream (the view totals): a mapping that passes only the
 * changes its filters name (Lambda bills and invokes nothing for the rest), in batches of its size
 * gathered for up to its window, newest first at creation (a mapping made again resumes at the
 * stream's end: the changes since are not applied twice). A batch the function reports failed is
 * retried from that record, halved after each failure, `retryAttempts` times; then its place in the
 * stream (shard and sequence numbers, not the records) lands in a queue behind the failed-events
 * alarm. Returns that queue.
 */
export function startStreamFunction(
  scope: Construct,
  props: Pick<BackgroundProps, 'spec' | 'fn' | 'access'> & { table: ITable },
): Queue {
  const { spec, fn, access, table } = props;
  const stream = spec.tableStream;
  if (!stream || !table.tableStreamArn) throw new Error(`${spec.handler} has no table stream`);
  const failed = new Queue(scope, `${spec.id}FailedEvents`, {
    retentionPeriod: FAILED_EVENT_RETENTION,
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
  });
  access.sendsFailedEventsTo(failed);
  access.readsStreamOf(table);
  const keyFilter = (prefix: string) => ({ S: [{ prefix }] });
  new CfnEventSourceMapping(scope, `${spec.id}Stream`, {
    functionName: fn.functionName,
    eventSourceArn: table.tableStreamArn,
    startingPosition: 'LATEST',
    batchSize: stream.batchSize,
    maximumBatchingWindowInSeconds: stream.batchingWindowSeconds,
    bisectBatchOnFunctionError: true,
    maximumRetryAttempts: stream.retryAttempts,
    functionResponseTypes: ['ReportBatchItemFailures'],
    destinationConfig: { onFailure: { destination: failed.queueArn } },
    filterCriteria: {
      filters: stream.filters.map((filter) => ({
        pattern: JSON.stringify({
          dynamodb: {
            Keys: {
              pk: keyFilter(filter.pk),
              ...(filter.sk === undefined ? {} : { sk: keyFilter(filter.sk) }),
            },
          },
        }),
      })),
    },
  });
  return failed;
}
