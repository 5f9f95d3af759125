import type { S3Event } from 'aws-lambda';
import { type ObjectEventType, objectEventFunctions } from '#shared/routes/background';
import { loadHandler } from './dispatch.ts';

/**
 * Lambda retries a failed asynchronous invocation twice (about a minute, then two, later); locally
 * the same two retries come sooner. (A file whose bytes' event arrives before its metadata is
 * recorded is the one expected failure.)
 */
const RETRY_DELAYS_MS = [200, 1000];

type ObjectEventHandler = (event: S3Event) => Promise<unknown>;

export interface ObjectEventFeedOptions {
  /** The handler module's `handler` (the runner's own loader; tests give their own). */
  load?: (handler: string) => Promise<ObjectEventHandler>;
  retryDelaysMs?: readonly number[];
  /**
   * What an event waits for before it is delivered: the runner's API requests in flight when it
   * arrived (in-flight.ts), so a direct upload's event finds its file recorded, as S3's notification,
   * sent after the request that stored the object, does in AWS. Nothing by default (the tests).
   */
  after?: () => Promise<void>;
}

/**
 * Runs tasks one after another in the order given: a queue with one worker. A task's failure is its
 * own caller's; the next task runs all the same.
 */
function oneAtATime(): <T>(task: () => Promise<T>) => Promise<T> {
  let last: Promise<unknown> = Promise.resolve();
  return (task) => {
    const run = last.then(task, task);
    last = run.catch(() => undefined);
    return run;
  };
}

export interface ObjectEventFeed {
  /** Feeds one S3 notification to every function subscribed to its records' event types and keys. */
  handle(event: S3Event): void;
  /** Resolves once every event handed in so far has been handled (retries included). */
  settled(): Promise<void>;
}

/** Whether a record's event (`ObjectCreated:Put`) is one of the types (`s3:ObjectCreated:*`). */
const subscribes = (types: readonly ObjectEventType[], eventName: string) =>
  types.some((type) => {
    const name = type.replace(/^s3:/, '');
    return name.endsWith('*') ? eventName.startsWith(name.slice(0, -1)) : eventName === name;
  });

const keyOf = (record: S3Event['Records'][number]) =>
  decodeURIComponent(record.s3.object.key.replace(/\+/g, ' '));

/**
 * What the bucket's event notifications do in AWS: the local S3 server's events (object created,
 * object retagged; see s3.ts) go to the same handler modules the stack subscribes
 * (`objectEventFunctions`), for the same event types and prefix, with the same event, retried as
 * Lambda retries. Nothing here waits for them: an upload has answered already, and a failure is
 * logged, never the upload's.
 *
 * Each function gets its events one at a time, in a queue (retries take their turn again after
 * their delay). In AWS every invocation has a sandbox and memory of its own; here they all share the
 * runner's process, which answers the API too, so two images decoding at once would add up (the
 * thumbnail function's pixel limit bounds one decode: docs/files.md#thumbnails).
 */
export function createObjectEventFeed(
  log: (line: string) => void = console.log,
  {
    load = (handler) => loadHandler(handler) as unknown as Promise<ObjectEventHandler>,
    retryDelaysMs = RETRY_DELAYS_MS,
    after,
  }: ObjectEventFeedOptions = {},
): ObjectEventFeed {
  const inFlight = new Set<Promise<void>>();
  const queues = new Map<string, ReturnType<typeof oneAtATime>>();
  const queueOf = (handler: string) => {
    const queue = queues.get(handler) ?? oneAtATime();
    queues.set(handler, queue);
    return queue;
  };
  const deliver = async (handler: string, event: S3Event, ready: Promise<void> | undefined) => {
    if (ready) await ready;
    const handle = await load(handler);
    const inTurn = queueOf(handler);
    for (let attempt = 0; ; attempt++) {
      try {
        const result = await inTurn(() => handle(event));
        log(`${handler} ${event.Records.map(keyOf).join(', ')}: ${JSON.stringify(result)}`);
        return;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        const delay = retryDelaysMs[attempt];
        if (delay === undefined) {
          log(`${handler} ${event.Records.map(keyOf).join(', ')}: failed, not retried again: ${message}`);
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  };
  return {
    handle(event) {
      let ready: Promise<void> | undefined;
      for (const fn of objectEventFunctions) {
        const records = event.Records.filter(
          (record) => subscribes(fn.events, record.eventName) && keyOf(record).startsWith(fn.prefix),
        );
        if (records.length === 0) continue;
        ready ??= after?.();
        const delivery: Promise<void> = deliver(fn.handler, { Records: records }, ready).finally(() =>
          inFlight.delete(delivery),
        );
        inFlight.add(delivery);
      }
    },
    async settled() {
      while (inFlight.size > 0) await Promise.all(inFlight);
    },
  };
}
