import type { S3Event } from 'aws-lambda';
import { objectEventFunctions } from '#shared/routes';
import { loadHandler } from './dispatch.ts';

/**
 * Lambda retries a failed asynchronous invocation twice (about a minute, then two, later); locally
 * the same two retries come sooner. (A file whose bytes' event arrives before its metadata is
 * recorded is the one expected failure.)
 */
const RETRY_DELAYS_MS = [200, 1000];

export interface ObjectEventFeed {
  /** Feeds one S3 notification to every function whose prefix its keys are under. */
  handle(event: S3Event): void;
  /** Resolves once every event handed in so far has been handled (retries included). */
  settled(): Promise<void>;
}

/**
 * The notification S3 sends for one object `PUT` (the fields the handlers read, key URL-encoded as
 * S3 encodes it), for tests that invoke a function S3 starts without an S3 server's events.
 */
export const objectCreatedEvent = (bucket: string, key: string): S3Event => ({
  Records: [
    {
      eventVersion: '2.1',
      eventSource: 'aws:s3',
      awsRegion: 'us-east-1',
      eventTime: new Date().toISOString(),
      eventName: 'ObjectCreated:Put',
      userIdentity: { principalId: 'local' },
      requestParameters: { sourceIPAddress: '127.0.0.1' },
      responseElements: { 'x-amz-request-id': 'local', 'x-amz-id-2': 'local' },
      s3: {
        s3SchemaVersion: '1.0',
        configurationId: 'local',
        bucket: { name: bucket, ownerIdentity: { principalId: 'local' }, arn: `arn:aws:s3:::${bucket}` },
        object: {
          key: encodeURIComponent(key).replaceAll('%2F', '/').replaceAll('%20', '+'),
          size: 0,
          eTag: '',
          sequencer: '0',
        },
      },
    },
  ],
});

const keyOf = (record: S3Event['Records'][number]) =>
  decodeURIComponent(record.s3.object.key.replace(/\+/g, ' '));

/**
 * What the bucket's event notification does in AWS: the object-created events of the local S3
 * server go to the same handler modules the stack subscribes (`objectEventFunctions`), with the
 * same event, retried as Lambda retries. Nothing here waits for them: an upload has answered
 * already, and a failure is logged, never the upload's.
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
          (record) => record.eventName.startsWith('ObjectCreated:') && keyOf(record).startsWith(fn.prefix),
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
