import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { BatchGetCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Context } from 'aws-lambda';
import { documents, dynamodb, tableName } from '#shared/db/client';
import { fileNameKey } from '#shared/db/keys/files';
import { pendingDeletionKey, usernameKey } from '#shared/db/keys/users';
import { API_FUNCTION_SECONDS } from '#shared/http/handler';
import { bucketName, s3 } from '#shared/s3/client';
import { loadHandler, routeEvent } from '../../infra/local/dispatch.ts';
import { call, requestEvent, toTestResponse } from '../support/client.ts';
import { seedFiles } from '../support/many-files.ts';
import { partitionItems } from '../support/snapshot.ts';
import { signedInUser } from '../support/users.ts';

/**
 * Lambda's clock, counted in AWS calls instead of measured: each DynamoDB call is taken to cost
 * 10 ms and each S3 call 250 ms (more than either takes in a region, and calls made at once are
 * counted one after the other), so `getRemainingTimeInMillis` falls as the work goes on whatever
 * this machine's speed. An invocation that ends with time left would have ended in AWS too.
 */
function awsClock(budgetMs: number) {
  let spentMs = 0;
  const name = `awsClock${Math.random()}`;
  const cost = (ms: number) => (next: (args: never) => Promise<unknown>) => async (args: never) => {
    spentMs += ms;
    return next(args);
  };
  dynamodb.middlewareStack.add(cost(10) as never, { step: 'initialize', name });
  s3.middlewareStack.add(cost(250) as never, { step: 'initialize', name });
  return {
    context: {
      awsRequestId: 'aws-clock',
      getRemainingTimeInMillis: () => budgetMs - spentMs,
    } satisfies Pick<Context, 'awsRequestId' | 'getRemainingTimeInMillis'>,
    /** Stops counting; answers the time that was left. */
    stop: () => {
      dynamodb.middlewareStack.remove(name);
      s3.middlewareStack.remove(name);
      return budgetMs - spentMs;
    },
  };
}

/**
 * Files in the deleted user's library, and the time each worker run is given (its Lambda context's,
 * which is all the worker reads; deployed, the schedule's function has SCHEDULED_FUNCTION_SECONDS,
 * 60 s). What is proven depends on the files outnumbering what one request and one run get through,
 * not on the numbers: 2,000 files and 15 s runs take the request's 10 s and three runs, as 10,000
 * files and 60 s runs took four (at a fifth of the seeding and deleting: 358 s of the CI run before).
 * Each run still keeps the 3 s reserve a step needs, as a 60 s run does.
 */
const FILES = 2_000;
const WORKER_RUN_MS = 15_000;

type DeleteHandler = (event: unknown, context: unknown) => Promise<Parameters<typeof toTestResponse>[0]>;
type Worker = (event: unknown, context: unknown) => Promise<{ finished: number; left: number }>;

async function claimsLeft(names: string[]): Promise<number> {
  let found = 0;
  for (let offset = 0; offset < names.length; offset += 100) {
    const keys = names.slice(offset, offset + 100).map((name) => fileNameKey(name));
    let request: Record<string, unknown>[] | undefined = keys;
    while (request?.length) {
      const result = await documents.send(
        new BatchGetCommand({ RequestItems: { [tableName]: { Keys: request, ConsistentRead: true } } }),
      );
      found += result.Responses?.[tableName]?.length ?? 0;
      request = result.UnprocessedKeys?.[tableName]?.Keys as Record<string, unknown>[] | undefined;
    }
  }
  return found;
}

test('a user of 2,000 files is deleted completely: 202 within the function’s time, the worker finishes over several runs', async () => {
  const admin = await signedInUser('ADMIN');
  const owner = await signedInUser('USER');
  const names = await seedFiles(owner.id, FILES);
  expect(names).toHaveLength(FILES);

  const deleteUser = (await loadHandler('users/delete')) as unknown as DeleteHandler;
  const { event } = routeEvent(
    requestEvent('DELETE', `/api/users/${owner.id}`, { cookie: admin.cookie, json: { delete: true } }),
  );
  const clock = awsClock(API_FUNCTION_SECONDS * 1000);
  const answer = toTestResponse(await deleteUser(event, clock.context));
  const left = clock.stop();
  console.info(`DELETE: ${answer.status}, ${left} ms of ${API_FUNCTION_SECONDS * 1000} left`);
  expect(left).toBeGreaterThan(0);
  expect([answer.status, answer.headers.location, answer.body.id]).toEqual([
    202,
    `/api/users/${owner.id}`,
    owner.id,
  ]);
  // Under way: the user shows (to poll), its token is refused.
  expect((await call('GET', `/api/users/${owner.id}`, { cookie: admin.cookie })).status).toBe(200);
  expect((await call('GET', '/api/user', { token: owner.token })).status).toBe(401);

  const worker = (await loadHandler('users/continue-deletions')) as unknown as Worker;
  const runs: { finished: number; left: number; msLeft: number }[] = [];
  for (let run = 0; run < 20; run++) {
    const runClock = awsClock(WORKER_RUN_MS);
    const report = await worker({}, runClock.context);
    runs.push({ ...report, msLeft: runClock.stop() });
    if (report.left === 0) break;
  }
  console.info(`worker runs: ${JSON.stringify(runs)}`);
  expect(runs.length).toBeGreaterThan(1);
  for (const run of runs) expect(run.msLeft).toBeGreaterThan(0);
  expect(runs.at(-1)).toMatchObject({ left: 0 });
  expect(runs.reduce((sum, run) => sum + run.finished, 0)).toBe(1);

  expect((await call('GET', `/api/users/${owner.id}`, { cookie: admin.cookie })).status).toBe(404);
  expect(await partitionItems(owner.id)).toEqual([]);
  expect(await claimsLeft(names)).toBe(0);
  const objects = await s3.send(
    new ListObjectsV2Command({ Bucket: bucketName, Prefix: `files/${owner.id}/`, MaxKeys: 1 }),
  );
  expect(objects.KeyCount).toBe(0);
  const read = (key: Record<string, string>) =>
    documents.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }));
  expect((await read(usernameKey(owner.username))).Item).toBeUndefined();
  expect((await read(pendingDeletionKey(owner.id))).Item).toBeUndefined();
  // A later run finds nothing to do.
  const lastClock = awsClock(WORKER_RUN_MS);
  expect(await worker({}, lastClock.context)).toEqual({ finished: 0, left: 0 });
  lastClock.stop();
}, 900_000);
