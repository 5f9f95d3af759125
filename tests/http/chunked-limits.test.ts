import { randomBytes } from 'node:crypto';
import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documents, dynamodb, tableName } from '#shared/db/client';
import { chunkStageKey, uploadKey } from '#shared/db/keys/uploads';
import { STAGED_READS_AT_ONCE } from '#shared/files/bucket/multipart';
import { stagedChunkKey, UPLOAD_SESSION_DAYS } from '#shared/files/layout';
import { MIN_CHUNK_BYTES } from '#shared/files/reservation/staged-chunks';
import { s3 } from '#shared/s3/client';
import { chunksOf, counters, identifier, keysUnder, sendChunk, sha } from '../support/chunks.ts';
import { call } from '../support/client.ts';
import { download } from '../support/files.ts';
import { partitionItems } from '../support/snapshot.ts';
import { signedInUser } from '../support/users.ts';

const K = MIN_CHUNK_BYTES;

const uploadItems = async (userId: string) =>
  (await partitionItems(userId)).filter((item) => String(item.sk).startsWith('UPLOAD#'));

/** The stored upload item's size as DynamoDB JSON (an upper bound of what DynamoDB counts). */
async function uploadItemBytes(userId: string): Promise<number> {
  const [item] = await uploadItems(userId);
  const raw = await dynamodb.send(
    new GetItemCommand({
      TableName: tableName,
      Key: { pk: { S: String(item?.pk) }, sk: { S: String(item?.sk) } },
      ConsistentRead: true,
    }),
  );
  return JSON.stringify(raw.Item).length;
}

test('a chunk but the last under 64 KiB is 400 and opens nothing; a small last chunk is fine', async () => {
  const owner = await signedInUser();
  const small = await sendChunk(owner, {
    identifier: identifier(),
    start: 0,
    bytes: Buffer.alloc(K - 1),
    total: 2 * K,
  });
  expect([small.status, small.body.error]).toEqual([
    400,
    `chunks but the last must be at least 65536 bytes (64 KiB); this one has ${K - 1}`,
  ]);
  expect(await uploadItems(owner.id)).toEqual([]);
  const file = randomBytes(K + 10);
  const id = identifier();
  expect(
    (await sendChunk(owner, { identifier: id, start: 0, bytes: file.subarray(0, K), total: K + 10 })).status,
  ).toBe(200);
  const last = await sendChunk(owner, { identifier: id, start: K, bytes: file.subarray(K), total: K + 10 });
  expect(sha((await download(last.body.files[0].url)).bytes)).toBe(sha(file));
});

test('1,000 chunks of the smallest size: each answered 200, the upload item never grows, staged chunks read 8 at a time', async () => {
  const owner = await signedInUser();
  const chunks = 1000;
  const file = randomBytes(chunks * K);
  const id = identifier();
  let reading = 0;
  let mostReadsAtOnce = 0;
  s3.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName !== 'GetObjectCommand') return next(args);
      mostReadsAtOnce = Math.max(mostReadsAtOnce, ++reading);
      try {
        return await next(args);
      } finally {
        reading--;
      }
    },
    { step: 'initialize', name: 'countStagedReads' },
  );
  const statuses = new Set<number>();
  const itemBytes: number[] = [];
  let url = '';
  try {
    for (let n = 0; n < chunks; n++) {
      const start = n * K;
      const response = await sendChunk(owner, {
        identifier: id,
        start,
        bytes: file.subarray(start, start + K),
        total: file.length,
      });
      statuses.add(response.status);
      if (n < chunks - 1) itemBytes.push(await uploadItemBytes(owner.id));
      else url = response.body.files[0].url;
    }
  } finally {
    s3.middlewareStack.remove('countStagedReads');
  }
  expect([...statuses]).toEqual([200]);
  // The same few hundred bytes from the first chunk to the 999th (only the byte counts' digits grow).
  const [smallest, largest] = [Math.min(...itemBytes), Math.max(...itemBytes)];
  console.info(`upload item: ${smallest}–${largest} bytes over ${chunks - 1} chunks`);
  expect(largest).toBeLessThan(2048);
  expect(largest - smallest).toBeLessThan(64);
  // Each 5 MiB part gathers 80 staged chunks, read ahead in parallel but never more than the cap.
  expect(mostReadsAtOnce).toBe(STAGED_READS_AT_ONCE);
  expect(sha((await download(url)).bytes)).toBe(sha(file));
  expect(await keysUnder(`uploads/${owner.id}/`)).toEqual([]);
  expect(await counters(owner.id)).toMatchObject({ files: 1, bytes: file.length, pendingFiles: 0 });
}, 900_000);

test('copies of the last chunk sent at once: each answered 200 with the file or 409, and one file results', async () => {
  const owner = await signedInUser();
  for (let round = 0; round < 3; round++) {
    const file = randomBytes(2 * K + 100);
    const id = identifier();
    const chunk = chunksOf(file, id);
    expect((await sendChunk(owner, chunk(0, K))).status).toBe(200);
    expect((await sendChunk(owner, chunk(K, 2 * K))).status).toBe(200);
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => sendChunk(owner, chunk(2 * K, file.length))),
    );
    const statuses = answers.map((answer) => answer.status);
    for (const answer of answers) {
      expect([200, 409]).toContain(answer.status);
      if (answer.status === 409) {
        expect(answer.body.error).toBe(
          'another request is assembling this upload: send the last chunk again for its file',
        );
      }
    }
    expect(statuses).toContain(200);
    const fileIds = new Set(answers.filter((a) => a.status === 200).map((a) => a.body.files[0].id));
    expect(fileIds.size).toBe(1);
    // Sent again afterwards: the same file.
    const again = await sendChunk(owner, chunk(2 * K, file.length));
    expect([again.status, again.body.files[0].id]).toEqual([200, [...fileIds][0]]);
    expect(sha((await download(again.body.files[0].url)).bytes)).toBe(sha(file));
    expect(await counters(owner.id)).toMatchObject({ files: round + 1, pendingFiles: 0, pendingBytes: 0 });
  }
  const listed = await call('GET', '/api/user/files', { token: owner.token });
  expect(listed.body.total).toBe(3);
  expect(await keysUnder(`uploads/${owner.id}/`)).toEqual([]);
}, 120_000);

test(`an upload session ends ${UPLOAD_SESSION_DAYS} days after its first chunk; its reservation never runs past that`, async () => {
  const owner = await signedInUser();
  const id = identifier();
  const total = 4 * K;
  await sendChunk(owner, { identifier: id, start: 0, bytes: Buffer.alloc(K, 1), total });
  const [session] = await uploadItems(owner.id);
  const key = uploadKey(owner.id, String(session?.sk).slice('UPLOAD#'.length));
  const backdate = async (createdAt: number) =>
    documents.send(
      new UpdateCommand({
        TableName: tableName,
        Key: key,
        UpdateExpression: 'SET createdAt = :createdAt',
        ExpressionAttributeValues: { ':createdAt': new Date(createdAt).toISOString() },
      }),
    );
  const sessionMs = UPLOAD_SESSION_DAYS * 86_400_000;
  // Ten minutes before the end: the chunk is taken, the reservation ends with the session.
  const createdAt = Date.now() - sessionMs + 10 * 60_000;
  await backdate(createdAt);
  expect(
    (await sendChunk(owner, { identifier: id, start: K, bytes: Buffer.alloc(K, 2), total })).status,
  ).toBe(200);
  const [moved] = await uploadItems(owner.id);
  expect(moved?.reservedUntil).toBe(new Date(createdAt + sessionMs).toISOString());
  // After the end: 404, as for an upload that expired.
  await backdate(Date.now() - sessionMs - 1000);
  const late = await sendChunk(owner, { identifier: id, start: 2 * K, bytes: Buffer.alloc(K, 3), total });
  expect([late.status, late.body.error]).toEqual([
    404,
    expect.stringContaining('no chunked upload has this'),
  ]);
});

test('an upload begun by an earlier version (its staged chunks listed in its item) still completes', async () => {
  const owner = await signedInUser();
  const file = randomBytes(2 * K + 100);
  const id = identifier();
  const chunk = chunksOf(file, id);
  expect((await sendChunk(owner, chunk(0, K))).status).toBe(200);
  // As the earlier version left it: the staged chunk in the item's list, no item of its own.
  const [session] = await uploadItems(owner.id);
  const uploadId = String(session?.sk).slice('UPLOAD#'.length);
  await documents.send(
    new UpdateCommand({
      TableName: tableName,
      Key: uploadKey(owner.id, uploadId),
      UpdateExpression: 'SET chunked.staged = :staged REMOVE chunked.partStart',
      ExpressionAttributeValues: { ':staged': [{ key: stagedChunkKey(owner.id, uploadId, 0), size: K }] },
    }),
  );
  await documents.send(
    new DeleteCommand({ TableName: tableName, Key: chunkStageKey(owner.id, uploadId, 0) }),
  );
  expect((await sendChunk(owner, chunk(K, 2 * K))).status).toBe(200);
  const last = await sendChunk(owner, chunk(2 * K, file.length));
  expect(last.status).toBe(200);
  expect(sha((await download(last.body.files[0].url)).bytes)).toBe(sha(file));
  expect(await keysUnder(`uploads/${owner.id}/`)).toEqual([]);
});
