import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { documents, dynamodb, tableName } from '#shared/db/client';
import { FILE_PREFIX, fileNameKey } from '#shared/db/keys/files';
import { objectSize } from '#shared/files/bucket/objects';
import { fileObjectKey, uploadObjectKey } from '#shared/files/layout';
import { bucketName, s3 } from '#shared/s3/client';
import { call, type TestResponse, uniqueName } from '../support/client.ts';
import { failNth } from '../support/faults.ts';
import { download, upload, uploadRequest } from '../support/files.ts';
import { partitionItems } from '../support/snapshot.ts';
import { signedInUser } from '../support/users.ts';

type Admin = Awaited<ReturnType<typeof signedInUser>>;

/**
 * A user with `count` uploaded files (public names chosen by the client, so a test can ask for one
 * of them again) and one presigned upload whose bytes are in the bucket but not yet completed.
 */
async function userWithFiles(count: number) {
  const owner = await signedInUser('USER');
  const prefix = uniqueName('doc');
  const files = await upload(
    owner.token,
    Array.from({ length: count }, (_, index) => ({
      fileName: `${prefix}-${index}.txt`,
      type: 'text/plain',
      content: `content ${index}`,
    })),
    { 'x-zipline-format': 'name' },
  );
  const started = await call('POST', '/api/user/files/uploads', {
    token: owner.token,
    json: { originalName: 'pending.bin', size: 5, type: 'application/octet-stream' },
  });
  expect(started.status).toBe(200);
  const put = await fetch(started.body.url, { method: 'PUT', body: 'bytes', headers: started.body.headers });
  expect(put.status).toBe(200);
  return { ...owner, files, uploadId: started.body.id as string };
}

async function nameClaim(name: string) {
  const result = await documents.send(
    new GetCommand({ TableName: tableName, Key: fileNameKey(name), ConsistentRead: true }),
  );
  return result.Item;
}

async function objectKeys(prefix: string) {
  const listing = await s3.send(new ListObjectsV2Command({ Bucket: bucketName, Prefix: prefix }));
  return (listing.Contents ?? []).map((object) => object.Key);
}

const storedKeys = (userId: string) => objectKeys(fileObjectKey(userId, ''));

/**
 * Runs a whole `DELETE /api/users/{id}` just before the next write transaction reaches DynamoDB:
 * the racing request has authenticated (and done its checks and S3 work) when the user disappears.
 */
function deleteBeforeNextTransaction(admin: Admin, userId: string, body?: unknown) {
  let deletion: Promise<TestResponse> | undefined;
  dynamodb.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === 'TransactWriteItemsCommand' && deletion === undefined) {
        deletion = call('DELETE', `/api/users/${userId}`, { cookie: admin.cookie, json: body });
        await deletion;
      }
      return next(args);
    },
    { step: 'initialize', name: 'deleteBetween' },
  );
  return { deletion: () => deletion };
}

afterEach(() => {
  dynamodb.middlewareStack.remove('injectedFault');
  dynamodb.middlewareStack.remove('deleteBetween');
});

test('DELETE with {"delete": true} removes file metadata, name claims and stored bytes; the names are free', async () => {
  const admin = await signedInUser('ADMIN');
  const owner = await userWithFiles(3);
  const sks = (await partitionItems(owner.id)).map((item) => String(item.sk));
  expect(sks.filter((sk) => sk.startsWith(FILE_PREFIX))).toHaveLength(3);
  expect(sks).toEqual(expect.arrayContaining(['FILESTATS', `UPLOAD#${owner.uploadId}`, 'USER']));
  const first = owner.files[0] as { id: string; name: string; url: string };
  expect((await download(first.url)).status).toBe(200);

  const deleted = await call('DELETE', `/api/users/${owner.id}`, {
    cookie: admin.cookie,
    json: { delete: true },
  });
  expect(deleted.status).toBe(200);

  expect(await partitionItems(owner.id)).toEqual([]);
  for (const file of owner.files) {
    expect(await nameClaim(file.name)).toBeUndefined();
    expect(await objectSize(fileObjectKey(owner.id, file.id))).toBeUndefined();
  }
  expect(await objectSize(uploadObjectKey(owner.id, owner.uploadId))).toBeUndefined();
  expect(await storedKeys(owner.id)).toEqual([]);
  expect((await download(first.url)).status).toBe(404);

  const other = await signedInUser('USER');
  const [reused] = await upload(
    other.token,
    [{ fileName: first.name, type: 'text/plain', content: 'mine' }],
    {
      'x-zipline-format': 'name',
    },
  );
  expect(reused?.name).toBe(first.name);
  expect((await download(reused?.url as string)).bytes?.toString()).toBe('mine');
});

test('DELETE without {"delete": true} removes metadata and name claims but leaves the stored bytes', async () => {
  const admin = await signedInUser('ADMIN');
  const owner = await userWithFiles(2);
  const first = owner.files[0] as { id: string; name: string; url: string };
  expect((await download(first.url)).bytes?.toString()).toBe('content 0');

  const deleted = await call('DELETE', `/api/users/${owner.id}`, { cookie: admin.cookie });
  expect(deleted.status).toBe(200);

  expect(await partitionItems(owner.id)).toEqual([]);
  for (const [index, file] of owner.files.entries()) {
    expect(await nameClaim(file.name)).toBeUndefined();
    expect(await objectSize(fileObjectKey(owner.id, file.id))).toBe(`content ${index}`.length);
  }
  expect(await objectSize(uploadObjectKey(owner.id, owner.uploadId))).toBe(5);
  // The public link is gone with the claim; the bytes stay (checked above).
  expect((await download(first.url)).status).toBe(404);

  const other = await signedInUser('USER');
  const [reused] = await upload(other.token, [{ fileName: first.name, content: 'mine' }], {
    'x-zipline-format': 'name',
  });
  expect(reused?.name).toBe(first.name);
});

/** The second batch's calls: its files' name claims (the last 5 in key order), or its counters item. */
type SecondBatch = (input: unknown, lastNames: Set<string>) => boolean;
const deletesClaimOfLast: SecondBatch = (input, lastNames) =>
  lastNames.has(String((input as { Key?: { pk?: string } }).Key?.pk).replace(/^FILENAME#/, ''));
const deletesCounters: SecondBatch = (input) =>
  JSON.stringify((input as { RequestItems?: unknown }).RequestItems ?? {}).includes('"FILESTATS"');

test.each([
  // 30 files: the first batch holds 25 of them, the second 5 plus the counters and the pending upload.
  // A page's batches run at once, so the failing call is picked by what it deletes, not by order.
  ['a name claim delete in the second batch', 'DeleteItem', 3, deletesClaimOfLast, 1],
  ['the second batch of partition deletes', 'BatchWriteItem', 1, deletesCounters, 0],
] as const)(
  'an outage at %s: no claim outlives its file item, and a retry releases every claim but one retaken since',
  async (_, operation, nth, secondBatch, stillClaimed) => {
    const admin = await signedInUser('ADMIN');
    const owner = await userWithFiles(30);
    // The partition in key order, as the deletion pages through it.
    const fileItems = (await partitionItems(owner.id)).filter((item) =>
      String(item.sk).startsWith(FILE_PREFIX),
    );
    const lastNames = new Set(fileItems.slice(25).map((item) => String(item.name)));
    failNth(operation, nth, (input) => secondBatch(input, lastNames));
    const failed = await call('DELETE', `/api/users/${owner.id}`, {
      cookie: admin.cookie,
      json: { delete: true },
    });
    expect(failed.status).toBe(503);
    dynamodb.middlewareStack.remove('injectedFault');

    // The second batch's file items are all still there; a claim is never left without its file item.
    const remaining = (await partitionItems(owner.id)).filter((item) =>
      String(item.sk).startsWith(FILE_PREFIX),
    );
    expect(remaining).toHaveLength(5);
    const remainingNames = new Set(remaining.map((item) => item.name));
    const claimed: string[] = [];
    for (const file of owner.files) {
      if ((await nameClaim(file.name)) === undefined) continue;
      expect(remainingNames.has(file.name)).toBe(true);
      claimed.push(file.name);
    }
    expect(claimed).toHaveLength(stillClaimed);

    // A name released halfway is free: another user takes it before the deletion is repeated.
    const released = [...remainingNames].find((name) => !claimed.includes(String(name))) as string;
    const other = await signedInUser('USER');
    const [retaken] = await upload(other.token, [{ fileName: released, content: 'taken over' }], {
      'x-zipline-format': 'name',
    });
    expect(retaken?.name).toBe(released);

    const retried = await call('DELETE', `/api/users/${owner.id}`, {
      cookie: admin.cookie,
      json: { delete: true },
    });
    expect(retried.status).toBe(200);
    expect(await partitionItems(owner.id)).toEqual([]);
    expect(await storedKeys(owner.id)).toEqual([]);
    for (const file of owner.files) {
      if (file.name === released) continue;
      expect(await nameClaim(file.name)).toBeUndefined();
    }
    // The retry left the other user's claim on the retaken name alone.
    expect(await nameClaim(released)).toMatchObject({ userId: other.id, fileId: retaken?.id });
    expect((await download(retaken?.url as string)).bytes?.toString()).toBe('taken over');
  },
);

describe('a file write authenticated just before the deletion is refused and leaves nothing', () => {
  test('POST /api/upload', async () => {
    const admin = await signedInUser('ADMIN');
    const owner = await signedInUser('USER');
    const name = `${uniqueName('late')}.txt`;
    const race = deleteBeforeNextTransaction(admin, owner.id);
    const uploaded = await uploadRequest(owner.token, [{ fileName: name, content: 'late bytes' }], {
      'x-zipline-format': 'name',
    });
    expect((await race.deletion())?.status).toBe(200);
    expect(uploaded.status).toBe(401);
    expect(await partitionItems(owner.id)).toEqual([]);
    expect(await nameClaim(name)).toBeUndefined();
    // The deletion kept the bytes (no `delete: true`): the upload removed the object it had written.
    expect(await storedKeys(owner.id)).toEqual([]);
  });

  test('POST /api/user/files/uploads', async () => {
    const admin = await signedInUser('ADMIN');
    const owner = await signedInUser('USER');
    const race = deleteBeforeNextTransaction(admin, owner.id);
    const started = await call('POST', '/api/user/files/uploads', {
      token: owner.token,
      json: { originalName: 'late.bin', size: 5 },
    });
    expect((await race.deletion())?.status).toBe(200);
    expect(started.status).toBe(401);
    expect(await partitionItems(owner.id)).toEqual([]);
  });

  test('POST /api/user/files/uploads/{id}/complete', async () => {
    const admin = await signedInUser('ADMIN');
    const owner = await signedInUser('USER');
    const name = `${uniqueName('late')}.bin`;
    const started = await call('POST', '/api/user/files/uploads', {
      token: owner.token,
      json: { originalName: name, size: 5 },
      headers: { 'x-zipline-format': 'name' },
    });
    await fetch(started.body.url, { method: 'PUT', body: 'bytes', headers: started.body.headers });
    const race = deleteBeforeNextTransaction(admin, owner.id, { delete: true });
    const completed = await call('POST', `/api/user/files/uploads/${started.body.id}/complete`, {
      token: owner.token,
    });
    expect((await race.deletion())?.status).toBe(200);
    expect(completed.status).toBe(401);
    expect(await partitionItems(owner.id)).toEqual([]);
    expect(await nameClaim(name)).toBeUndefined();
    expect(await storedKeys(owner.id)).toEqual([]);
  });
});
