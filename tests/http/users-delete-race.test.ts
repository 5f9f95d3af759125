import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { dynamodb, getItem } from '#shared/db/client';
import { fileNameKey } from '#shared/db/keys/files';
import { pendingDeletionKey, usernameKey } from '#shared/db/keys/users';
import { bucketName, s3 } from '#shared/s3/client';
import { loadHandler } from '../../infra/local/dispatch.ts';
import { call, uniqueName } from '../support/client.ts';
import { upload } from '../support/files.ts';
import { partitionItems } from '../support/snapshot.ts';
import { signedInUser } from '../support/users.ts';

/**
 * The worker (`users/continue-deletions`) takes up every marked deletion, including one whose
 * request is still at work: in AWS it runs every minute, locally every 5 s. A request that found its
 * deletion finished by the worker answered 404 (a dashboard test saw "user not found" instead of
 * "robin deleted"); the deletion was done, so it answers 200 as if it had done it alone.
 */
type Worker = (event: unknown, context: unknown) => Promise<{ finished: number; left: number }>;

/** One whole run of the worker, with a minute of Lambda time (its schedule's function has 60 s). */
async function runWorker() {
  const worker = (await loadHandler('users/continue-deletions')) as unknown as Worker;
  return worker({}, { awsRequestId: 'race', getRemainingTimeInMillis: () => 60_000 });
}

/**
 * Runs the worker once at one point of the request's transactions: right after the one that marks
 * the user (`markedAt` is the pending record's), or right before the one that removes it (its
 * condition is on `deletingAt`). The worker's own transactions pass untouched.
 */
function workerAt(moment: 'after the mark' | 'before the removal') {
  const reports: { finished: number; left: number }[] = [];
  let started = false;
  const runOnce = async () => {
    started = true;
    reports.push(await runWorker());
  };
  dynamodb.middlewareStack.add(
    (next, context) => async (args) => {
      if (started || context.commandName !== 'TransactWriteItemsCommand') return next(args);
      const sent = JSON.stringify((args as { input?: unknown }).input ?? '');
      if (moment === 'before the removal' && sent.includes('attribute_exists(deletingAt)')) await runOnce();
      const result = await next(args);
      if (moment === 'after the mark' && sent.includes('markedAt')) await runOnce();
      return result;
    },
    { step: 'initialize', name: 'workerBetween' },
  );
  return reports;
}

afterEach(() => {
  dynamodb.middlewareStack.remove('workerBetween');
});

const read = (key: Record<string, string>) => getItem(key, { consistent: true });

test.each(['after the mark', 'before the removal'] as const)(
  'the worker finishing a deletion %s of its request: the request answers 200, nothing is left',
  async (moment) => {
    const admin = await signedInUser('ADMIN');
    const owner = await signedInUser('USER');
    const prefix = uniqueName('race');
    const files = await upload(
      owner.token,
      [0, 1].map((index) => ({
        fileName: `${prefix}-${index}.txt`,
        type: 'text/plain',
        content: `${index}`,
      })),
      { 'x-zipline-format': 'name' },
    );
    expect(files).toHaveLength(2);

    const reports = workerAt(moment);
    const deleted = await call('DELETE', `/api/users/${owner.id}`, {
      cookie: admin.cookie,
      json: { delete: true },
    });
    expect(reports).toEqual([{ finished: 1, left: 0 }]);
    expect([deleted.status, deleted.body.id, deleted.body.username]).toEqual([200, owner.id, owner.username]);

    expect((await call('GET', `/api/users/${owner.id}`, { cookie: admin.cookie })).status).toBe(404);
    expect((await call('GET', '/api/user', { token: owner.token })).status).toBe(401);
    expect(await partitionItems(owner.id)).toEqual([]);
    expect(await read(usernameKey(owner.username))).toBeUndefined();
    expect(await read(pendingDeletionKey(owner.id))).toBeUndefined();
    for (const file of files) expect(await read(fileNameKey(file.name))).toBeUndefined();
    const objects = await s3.send(
      new ListObjectsV2Command({ Bucket: bucketName, Prefix: `files/${owner.id}/` }),
    );
    expect(objects.KeyCount).toBe(0);
    // Nothing is left for a later run either.
    expect(await runWorker()).toEqual({ finished: 0, left: 0 });
  },
);
