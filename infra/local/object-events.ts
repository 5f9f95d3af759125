import type { S3Event } from 'aws-lambda';
import { type ObjectEventType, objectEventFunctions } from '#shared/routes';
import { loadHandler } from './dispatch.ts';

/**
 * Lambda retries a failed asynchronous invocation twice (about a minute, then two, later); locally
 * the same two retries come sooner. (A file whose bytes' event arrives before its metadata is
 * recorded is the one expected failure.)
 */
const RETRY_DELAYS_MS = [200, 1000];

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
 */
export function createObjectEventFeed(log: (line: string) => void = console.log): ObjectEventFeed {
  const inFlight = new Set<Promise<void>>();
  const deliver = async (handler: string, event: S3Event) => {
    const invoke = (await loadHandler(handler)) as unknown as (event: S3Event) => Promise<unknown>;
    for (let attempt = 0; ; attempt++) {
      try {
        const result = await invoke(event);
        log(`${handler} ${event.Records.map(keyOf).join(', ')}: ${JSON.stringify(result)}`);
        return;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        const delay = RETRY_DELAYS_MS[attempt];
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
      for (const fn of objectEventFunctions) {
        const records = event.Records.filter(
          (record) => subscribes(fn.events, record.eventName) && keyOf(record).startsWith(fn.prefix),
        );
        if (records.length === 0) continue;
        const delivery: Promise<void> = deliver(fn.handler, { Records: records }).finally(() =>
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
