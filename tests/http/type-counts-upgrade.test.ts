import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documents, tableName } from '#shared/db/client';
import { fileStatsKey } from '#shared/db/keys/files';
import { newFileId } from '#shared/files/names';
import { toFileItem } from '#shared/files/record/items';
import { localClient } from '../../infra/local/dynamodb.ts';
import { backfillTypeCounts } from '../../infra/type-counts-upgrade.ts';
import { call } from '../support/client.ts';
import { upload } from '../support/files.ts';
import { partitionItems } from '../support/snapshot.ts';
import { signedInUser } from '../support/users.ts';

/**
 * Files recorded before the per-type counts existed have none: `npm run upgrade:data` recounts each
 * user once (infra/type-counts-upgrade.ts). Their stats then count every file once, a second run
 * changes nothing, and a file written while a recount runs is counted once too.
 */

const typeCounts = async (token: string) => {
  const response = await call('GET', '/api/user/stats', { token });
  expect(response.status).toBe(200);
  return response.body.sortTypeCount as Record<string, number>;
};

/** A file as the version before the per-type counts recorded it: its item and the counters it moved. */
async function recordOldFile(userId: string, type: string, size: number) {
  const id = newFileId(Date.now());
  const now = new Date().toISOString();
  const file = {
    id,
    name: `old-${id}`,
    originalName: 'old.bin',
    size,
    type,
    views: 0,
    maxViews: null,
    favorite: false,
    createdAt: now,
    updatedAt: now,
    deletesAt: null,
    downloadAsOriginalName: false,
    objectKey: `files/${userId}/${id}`,
    passwordHash: null,
    version: 1,
    thumbnail: null,
    folderId: null,
    tags: [],
  };
  await documents.send(new PutCommand({ TableName: tableName, Item: toFileItem(userId, file) }));
  await documents.send(
    new UpdateCommand({
      TableName: tableName,
      Key: fileStatsKey(userId),
      UpdateExpression: 'ADD files :one, #bytes :size',
      ExpressionAttributeNames: { '#bytes': 'bytes' },
      ExpressionAttributeValues: { ':one': 1, ':size': size },
    }),
  );
  return id;
}

const counterItems = async (userId: string) =>
  (await partitionItems(userId)).filter((item) => String(item.sk).startsWith('FILESTATS'));

test('files recorded without a type count are counted once by the upgrade; a second run changes nothing', async () => {
  // One user with only old files (no type items, counters without write counts), one with both.
  const old = await signedInUser();
  await recordOldFile(old.id, 'application/pdf', 100);
  await recordOldFile(old.id, 'application/pdf', 200);
  const mixed = await signedInUser();
  await upload(mixed.token, [
    { fileName: 'a.txt', type: 'text/plain', content: 'a' },
    { fileName: 'b.txt', type: 'text/plain', content: 'b' },
  ]);
  await recordOldFile(mixed.id, 'Text/Plain', 10);
  await recordOldFile(mixed.id, 'image/webp', 20);
  const fresh = await signedInUser();
  await upload(fresh.token, [{ fileName: 'c.txt', type: 'text/plain', content: 'c' }]);

  expect(await typeCounts(old.token)).toEqual({});
  expect(await typeCounts(mixed.token)).toEqual({ 'text/plain': 2 });

  const client = localClient(process.env.DYNAMODB_ENDPOINT as string);
  try {
    // Each user with counters once (the fresh one too: its counts stay what they were).
    expect(await backfillTypeCounts(client, tableName)).toBe(3);
    expect(await typeCounts(old.token)).toEqual({ 'application/pdf': 2 });
    expect(await typeCounts(mixed.token)).toEqual({ 'text/plain': 3, 'image/webp': 1 });
    expect(await typeCounts(fresh.token)).toEqual({ 'text/plain': 1 });

    const before = await counterItems(mixed.id);
    expect(await backfillTypeCounts(client, tableName)).toBe(0);
    expect(await counterItems(mixed.id)).toEqual(before);
  } finally {
    client.destroy();
  }
  // Files written after it move the recounted figures as any other.
  const [added] = await upload(old.token, [{ fileName: 'd.pdf', type: 'application/pdf', content: 'd' }]);
  expect(await typeCounts(old.token)).toEqual({ 'application/pdf': 3 });
  expect((await call('DELETE', `/api/user/files/${added?.id}`, { token: old.token })).status).toBe(200);
  expect(await typeCounts(old.token)).toEqual({ 'application/pdf': 2 });
}, 180_000);

test('an upload and a delete between the recount reading the files and writing the counts: read again, each file counted once', async () => {
  const user = await signedInUser();
  const oldId = await recordOldFile(user.id, 'image/gif', 5);
  await upload(user.token, [{ fileName: 'x.txt', type: 'text/plain', content: 'x' }]);
  const client = localClient(process.env.DYNAMODB_ENDPOINT as string);
  let raced = false;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === 'TransactWriteItemsCommand' && !raced) {
        raced = true;
        // After the recount read {gif: 1, text: 1}: a text file in (2), the old gif out (its count,
        // never made, goes to -1). Written as read, both counts would be wrong.
        await upload(user.token, [{ fileName: 'y.txt', type: 'text/plain', content: 'y' }]);
        expect((await call('DELETE', `/api/user/files/${oldId}`, { token: user.token })).status).toBe(200);
      }
      return next(args);
    },
    { step: 'initialize', name: 'writeDuringRecount' },
  );
  try {
    expect(await backfillTypeCounts(client, tableName)).toBe(1);
  } finally {
    client.destroy();
  }
  expect(raced).toBe(true);
  expect(await typeCounts(user.token)).toEqual({ 'text/plain': 2 });
  const gif = (await counterItems(user.id)).find((item) => item.type === 'image/gif');
  expect(gif?.files).toBe(0);
}, 120_000);
