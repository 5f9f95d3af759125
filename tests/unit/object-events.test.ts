import type { S3Event } from 'aws-lambda';
import { requestsInFlight } from '../../infra/local/in-flight.ts';
import { createObjectEventFeed } from '../../infra/local/object-events.ts';

/** An S3 notification of one object created under `files/`, as the local S3 server reports it. */
const created = (key: string): S3Event =>
  ({
    Records: [{ eventName: 'ObjectCreated:Put', s3: { object: { key } } }],
  }) as unknown as S3Event;

/** A promise the test settles when it chooses. */
function deferred() {
  let resolve = () => {};
  const promise = new Promise<void>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

const turns = async (count: number) => {
  for (let turn = 0; turn < count; turn++) await new Promise((resolve) => setImmediate(resolve));
};

/** Waits until `holds` is true (a retry waits for a timer, which a fixed count of turns may outrun). */
const until = async (holds: () => boolean) => {
  while (!holds()) await turns(1);
};

test('the runner hands a function its events one at a time, as a queue (thumbnails decode in its process)', async () => {
  const started: string[] = [];
  const releases = new Map<string, ReturnType<typeof deferred>>();
  let running = 0;
  let mostAtOnce = 0;
  const handler = async (event: S3Event) => {
    const key = event.Records[0]?.s3.object.key as string;
    started.push(key);
    running++;
    mostAtOnce = Math.max(mostAtOnce, running);
    const release = deferred();
    releases.set(key, release);
    await release.promise;
    running--;
    // The first one fails once: its retry waits its turn like any other event.
    if (key === 'files/u/a' && started.filter((k) => k === key).length === 1) throw new Error('not yet');
    return { ok: key };
  };
  const log: string[] = [];
  const feed = createObjectEventFeed((line) => log.push(line), {
    load: async () => handler as never,
    retryDelaysMs: [0],
  });
  for (const key of ['files/u/a', 'files/u/b', 'files/u/c']) feed.handle(created(key));
  await turns(20);
  expect(started).toEqual(['files/u/a']);
  for (const expected of [['a'], ['a', 'b'], ['a', 'b', 'c'], ['a', 'b', 'c', 'a']]) {
    await until(() => started.length >= expected.length);
    // Nothing else starts while this one runs.
    await turns(20);
    expect(started).toEqual(expected.map((key) => `files/u/${key}`));
    releases.get(started.at(-1) as string)?.resolve();
  }
  await feed.settled();
  expect(mostAtOnce).toBe(1);
  expect(log.filter((line) => line.includes('"ok"'))).toHaveLength(3);
});

test('an object event waits for the API requests in flight when it arrived, as S3 notifies after the request that stored the object', async () => {
  const inFlight = requestsInFlight();
  const upload = deferred();
  const later = deferred();
  const answered = inFlight.track(upload.promise);
  const started: string[] = [];
  const feed = createObjectEventFeed(() => undefined, {
    load: async () =>
      (async (event: S3Event) => started.push(event.Records[0]?.s3.object.key as string)) as never,
    after: inFlight.settled,
  });
  feed.handle(created('files/u/a'));
  // A request arriving after the event is not waited for.
  inFlight.track(later.promise);
  await turns(20);
  expect(started).toEqual([]);
  upload.resolve();
  await answered;
  await feed.settled();
  expect(started).toEqual(['files/u/a']);
  later.resolve();
});
