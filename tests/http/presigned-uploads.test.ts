import { createHash } from 'node:crypto';
import { DeleteObjectCommand, GetObjectTaggingCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documents, tableName } from '#shared/db/client';
import { fileKey, fileStatsKey } from '#shared/db/keys/files';
import { uploadKey } from '#shared/db/keys/uploads';
import { objectSize } from '#shared/files/bucket/objects';
import { bucketName, s3 } from '#shared/s3/client';
import { call } from '../support/client.ts';
import { download, uploadRequest } from '../support/files.ts';
import { updateUserQuota } from '../support/quota.ts';
import { headForbidden, injectS3Fault, recordS3Commands } from '../support/s3-calls.ts';
import { partitionItems } from '../support/snapshot.ts';
import { signedInUser } from '../support/users.ts';

type Owner = Awaited<ReturnType<typeof signedInUser>>;

const sha = (bytes: Buffer | undefined) =>
  createHash('sha256')
    .update(bytes ?? Buffer.alloc(0))
    .digest('hex');

function start(owner: Owner, size: number, type = 'application/octet-stream') {
  return call('POST', '/api/user/files/uploads', {
    token: owner.token,
    json: { originalName: `upload-${size}.bin`, size, type },
  });
}

const complete = (owner: Owner, uploadId: string) =>
  call('POST', `/api/user/files/uploads/${uploadId}/complete`, { token: owner.token });

/** PUTs to a presigned URL as a client does: the bytes with the headers the start answered. */
const put = (started: { body: { url: string; headers: Record<string, string> } }, bytes: Buffer | string) =>
  fetch(started.body.url, { method: 'PUT', body: bytes, headers: started.body.headers });

/** The object key a presigned URL writes (path-style locally: `/<bucket>/<key>`). */
const keyOf = (url: string) => decodeURIComponent(new URL(url).pathname).slice(`/${bucketName}/`.length);

async function keysUnder(prefix: string) {
  const listing = await s3.send(new ListObjectsV2Command({ Bucket: bucketName, Prefix: prefix }));
  return (listing.Contents ?? []).map((object) => object.Key).sort();
}

/** Every object of a user, wherever the service might have put it. */
const userObjects = async (userId: string) => [
  ...(await keysUnder(`files/${userId}/`)),
  ...(await keysUnder(`uploads/${userId}/`)),
];

const total = async (owner: Owner) =>
  (await call('GET', '/api/user/files', { token: owner.token })).body.total as number;

const pendingItems = async (userId: string) =>
  (await partitionItems(userId)).filter((item) => String(item.sk).startsWith('UPLOAD#'));

/** Lets an upload's reservation run out, as an hour passing would (nothing here deletes by TTL). */
async function expireReservation(userId: string, uploadId: string) {
  await documents.send(
    new UpdateCommand({
      TableName: tableName,
      Key: uploadKey(userId, uploadId),
      UpdateExpression: 'SET reservedUntil = :past',
      ExpressionAttributeValues: { ':past': new Date(Date.now() - 1000).toISOString() },
    }),
  );
}

describe('the presigned PUT URL (what S3 itself would check)', () => {
  test('signs size, type, create-only and the pending tag; carries no checksum of an empty body', async () => {
    const owner = await signedInUser();
    const started = await start(owner, 1234, 'video/mp4');
    expect(started.status).toBe(200);
    const url = new URL(started.body.url);
    const parameters = [...url.searchParams.keys()].map((name) => name.toLowerCase());
    expect(parameters.filter((name) => /^x-amz-(sdk-)?checksum/.test(name))).toEqual([]);
    const signed = (url.searchParams.get('X-Amz-SignedHeaders') ?? '').split(';');
    expect(signed).toEqual(
      expect.arrayContaining(['content-length', 'content-type', 'host', 'if-none-match', 'x-amz-tagging']),
    );
    // Signed headers must be sent as signed: the start tells the client each value.
    expect(started.body.headers).toEqual({
      'content-type': 'video/mp4',
      'if-none-match': '*',
      'x-amz-tagging': 'upload=pending',
    });
    expect(Number(url.searchParams.get('X-Amz-Expires'))).toBe(900);
    expect(keyOf(started.body.url)).toBe(`files/${owner.id}/${started.body.id}`);
  });
});

describe('pending uploads count against the quota', () => {
  test('by files: a started upload takes a file of the quota until it completes', async () => {
    const owner = await signedInUser();
    await updateUserQuota(owner.id, { filesQuota: 'BY_FILES', maxFiles: 2, maxBytes: null });
    expect((await uploadRequest(owner.token, [{ fileName: 'one.txt', content: '1' }])).status).toBe(200);
    const started = await start(owner, 5);
    expect(started.status).toBe(200);
    expect(await total(owner)).toBe(1);

    const second = await start(owner, 5);
    expect(second.status).toBe(413);
    expect(second.body.error).toBe('this upload would exceed your quota');
    expect((await uploadRequest(owner.token, [{ fileName: 'two.txt', content: '2' }])).status).toBe(413);
    expect(await pendingItems(owner.id)).toHaveLength(1);

    expect((await put(started, 'bytes')).status).toBe(200);
    expect((await complete(owner, started.body.id)).status).toBe(200);
    expect(await total(owner)).toBe(2);
    expect((await start(owner, 5)).status).toBe(413);
    const counters = await documents.send(
      new GetCommand({ TableName: tableName, Key: fileStatsKey(owner.id) }),
    );
    expect(counters.Item).toMatchObject({ files: 2, bytes: 6, pendingFiles: 0, pendingBytes: 0 });
  });

  test('by bytes: concurrent starts that each fit alone get exactly one reservation', async () => {
    const owner = await signedInUser();
    await updateUserQuota(owner.id, { filesQuota: 'BY_BYTES', maxBytes: '1kb', maxFiles: null });
    const racing = await Promise.all([start(owner, 600), start(owner, 600)]);
    expect(racing.map((response) => response.status).sort()).toEqual([200, 413]);
    expect(await pendingItems(owner.id)).toHaveLength(1);
    const multipart = await uploadRequest(owner.token, [{ fileName: 'a.bin', content: Buffer.alloc(500) }]);
    expect(multipart.status).toBe(413);
    expect(await total(owner)).toBe(0);
  });

  test(`at most 4 uploads pending per user: the next start is 429 and changes nothing`, async () => {
    const owner = await signedInUser();
    const started = [];
    for (let i = 0; i < 4; i++) {
      const response = await start(owner, 5);
      expect(response.status).toBe(200);
      started.push(response);
    }
    const refused = await start(owner, 5);
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatch(/at most 4 uploads can be pending/);
    expect(await pendingItems(owner.id)).toHaveLength(4);

    const first = started[0] as (typeof started)[number];
    expect((await put(first, 'bytes')).status).toBe(200);
    expect((await complete(owner, first.body.id)).status).toBe(200);
    expect((await start(owner, 5)).status).toBe(200);
  });
});

describe('an upload whose reservation ran out gives its room back (no TTL needed)', () => {
  test('a start that needs the room reclaims it: item, reservation and object go, completion is 404', async () => {
    const owner = await signedInUser();
    await updateUserQuota(owner.id, { filesQuota: 'BY_FILES', maxFiles: 1, maxBytes: null });
    const abandoned = await start(owner, 5);
    expect((await put(abandoned, 'bytes')).status).toBe(200);
    expect((await start(owner, 7)).status).toBe(413);

    await expireReservation(owner.id, abandoned.body.id);
    const next = await start(owner, 7);
    expect(next.status).toBe(200);
    expect(await objectSize(keyOf(abandoned.body.url))).toBeUndefined();
    expect((await complete(owner, abandoned.body.id)).status).toBe(404);
    expect((await put(next, 'seven b')).status).toBe(200);
    expect((await complete(owner, next.body.id)).status).toBe(200);
    const counters = await documents.send(
      new GetCommand({ TableName: tableName, Key: fileStatsKey(owner.id) }),
    );
    expect(counters.Item).toMatchObject({ files: 1, bytes: 7, pendingFiles: 0, pendingBytes: 0 });
  });

  test('so does /api/upload; an expired upload not yet reclaimed still completes', async () => {
    const owner = await signedInUser();
    await updateUserQuota(owner.id, { filesQuota: 'BY_FILES', maxFiles: 2, maxBytes: null });
    const late = await start(owner, 5);
    const abandoned = await start(owner, 5);
    expect((await uploadRequest(owner.token, [{ fileName: 'a.txt', content: 'a' }])).status).toBe(413);
    await expireReservation(owner.id, late.body.id);
    expect((await put(late, 'bytes')).status).toBe(200);
    // Expired but nobody needed the room yet: the upload is still there to complete.
    expect((await complete(owner, late.body.id)).status).toBe(200);

    await expireReservation(owner.id, abandoned.body.id);
    expect((await uploadRequest(owner.token, [{ fileName: 'a.txt', content: 'a' }])).status).toBe(200);
    expect(await pendingItems(owner.id)).toEqual([]);
    expect(await total(owner)).toBe(2);
  });

  test('within the pending cap too', async () => {
    const owner = await signedInUser();
    const started = [];
    for (let i = 0; i < 4; i++) started.push(await start(owner, 5));
    expect((await start(owner, 5)).status).toBe(429);
    await expireReservation(owner.id, (started[2] as (typeof started)[number]).body.id);
    expect((await start(owner, 5)).status).toBe(200);
    expect(await pendingItems(owner.id)).toHaveLength(4);
  });
});

describe('completion', () => {
  test('a multipart-sized upload completes where it was PUT: no copy, one object, and the URL adds nothing later', async () => {
    const owner = await signedInUser();
    const bytes = Buffer.alloc(6 * 1024 * 1024 + 123);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 31) & 255;
    const started = await start(owner, bytes.length, 'video/mp4');
    expect((await put(started, bytes)).status).toBe(200);

    const recorder = recordS3Commands();
    const completed = await complete(owner, started.body.id);
    recorder.stop();
    expect(completed.status).toBe(200);
    expect(recorder.commands).not.toContain('CopyObjectCommand');
    expect(recorder.commands).not.toContain('UploadPartCopyCommand');
    expect(recorder.commands).not.toContain('GetObjectCommand');

    const [file] = completed.body.files;
    expect(await userObjects(owner.id)).toEqual([keyOf(started.body.url)]);
    const tagging = await s3.send(
      new GetObjectTaggingCommand({ Bucket: bucketName, Key: keyOf(started.body.url) }),
    );
    expect(tagging.TagSet).toEqual([{ Key: 'upload', Value: 'complete' }]);
    expect(sha((await download(file.url)).bytes)).toBe(sha(bytes));

    // Real S3 answers 412 here (If-None-Match: * is signed); s3rver ignores it, but even so the URL
    // can only reach the file's own key: no other object appears.
    await put(started, bytes);
    expect(await userObjects(owner.id)).toEqual([keyOf(started.body.url)]);
    expect(await total(owner)).toBe(1);
    expect(await pendingItems(owner.id)).toEqual([]);
  });

  test('a missing object is 400 also when S3 answers the HEAD with 403; the upload stays completable', async () => {
    const owner = await signedInUser();
    const started = await start(owner, 5);
    const forbidden = injectS3Fault('HeadObjectCommand', headForbidden);
    try {
      const early = await complete(owner, started.body.id);
      expect(early.status).toBe(400);
      expect(early.body.error).toBe('nothing has been uploaded to this upload URL yet');

      // With the object there, a 403 is a real refusal: an error, never "absent".
      expect((await put(started, 'bytes')).status).toBe(200);
      expect((await complete(owner, started.body.id)).status).toBe(500);
    } finally {
      forbidden.stop();
    }
    expect((await complete(owner, started.body.id)).status).toBe(200);
    expect(await total(owner)).toBe(1);
  });

  test('an object of another size than declared is refused, deleted and its reservation released', async () => {
    const owner = await signedInUser();
    await updateUserQuota(owner.id, { filesQuota: 'BY_FILES', maxFiles: 1, maxBytes: null });
    const started = await start(owner, 10);
    // s3rver does not check the signed content-length (S3 would refuse this PUT).
    expect((await put(started, Buffer.alloc(11))).status).toBe(200);
    const completed = await complete(owner, started.body.id);
    expect(completed.status).toBe(400);
    expect(await userObjects(owner.id)).toEqual([]);
    expect(await pendingItems(owner.id)).toEqual([]);
    expect((await start(owner, 10)).status).toBe(200);
    expect(await total(owner)).toBe(0);
  });

  test('two concurrent completions record one file and keep its object', async () => {
    const owner = await signedInUser();
    const started = await start(owner, 5);
    await put(started, 'bytes');
    const results = await Promise.all([complete(owner, started.body.id), complete(owner, started.body.id)]);
    expect(results.map((response) => response.status).sort()).toEqual([200, 404]);
    expect(await total(owner)).toBe(1);
    const file = results.find((response) => response.status === 200)?.body.files[0];
    expect((await download(file.url)).bytes?.toString()).toBe('bytes');
  });
});

describe('deleting a file its upload URL could still PUT again', () => {
  const tagOf = async (key: string) =>
    (await s3.send(new GetObjectTaggingCommand({ Bucket: bucketName, Key: key }))).TagSet;

  test('within the URL lifetime the object stays in place, tagged pending for the lifecycle rule', async () => {
    const owner = await signedInUser();
    const started = await start(owner, 5);
    await put(started, 'bytes');
    const [file] = (await complete(owner, started.body.id)).body.files;
    expect((await call('DELETE', `/api/user/files/${file.id}`, { token: owner.token })).status).toBe(200);
    // Kept so that the create-only URL finds it there (S3: 412) until the URL has expired.
    expect(await userObjects(owner.id)).toEqual([keyOf(started.body.url)]);
    expect(await tagOf(keyOf(started.body.url))).toEqual([{ Key: 'upload', Value: 'pending' }]);
    expect((await download(file.url)).status).toBe(404);
    expect(await total(owner)).toBe(0);
  });

  test('an object already gone does not fail the deletion', async () => {
    const owner = await signedInUser();
    const started = await start(owner, 5);
    await put(started, 'bytes');
    const [file] = (await complete(owner, started.body.id)).body.files;
    await s3.send(new DeleteObjectCommand({ Bucket: bucketName, Key: keyOf(started.body.url) }));
    expect((await call('DELETE', `/api/user/files/${file.id}`, { token: owner.token })).status).toBe(200);
    expect(await userObjects(owner.id)).toEqual([]);
  });

  test('once the URL has expired, or for a file that never had one, the bytes are deleted at once', async () => {
    const owner = await signedInUser();
    const started = await start(owner, 5);
    await put(started, 'bytes');
    const [presigned] = (await complete(owner, started.body.id)).body.files;
    await documents.send(
      new UpdateCommand({
        TableName: tableName,
        Key: fileKey(owner.id, presigned.id),
        UpdateExpression: 'SET createdAt = :old',
        ExpressionAttributeValues: { ':old': new Date(Date.now() - 16 * 60 * 1000).toISOString() },
      }),
    );
    expect((await call('DELETE', `/api/user/files/${presigned.id}`, { token: owner.token })).status).toBe(
      200,
    );
    const [direct] = (await uploadRequest(owner.token, [{ fileName: 'a.txt', content: 'a' }])).body.files;
    expect((await call('DELETE', `/api/user/files/${direct.id}`, { token: owner.token })).status).toBe(200);
    expect(await userObjects(owner.id)).toEqual([]);
  });
});
