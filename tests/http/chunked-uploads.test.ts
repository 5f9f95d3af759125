import { randomBytes } from 'node:crypto';
import { S3ServiceException } from '@aws-sdk/client-s3';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documents, tableName } from '#shared/db/client';
import { uploadKey } from '#shared/db/keys/uploads';
import { MIN_CHUNK_BYTES } from '#shared/files/reservation/staged-chunks';
import { s3 } from '#shared/s3/client';
import {
  type ChunkSpec,
  counters,
  identifier,
  keysUnder,
  sendAll,
  sendChunk,
  sha,
} from '../support/chunks.ts';
import { call } from '../support/client.ts';
import { download, uploadRequest } from '../support/files.ts';
import { updateUserQuota } from '../support/quota.ts';
import { injectS3Fault } from '../support/s3-calls.ts';
import { partitionItems } from '../support/snapshot.ts';
import { signedInUser } from '../support/users.ts';

const MiB = 1024 * 1024;
/** The smallest chunk but the last (64 KiB). */
const K = MIN_CHUNK_BYTES;

describe('chunked uploads as Zipline clients send them', () => {
  test('in order: chunks below 5 MiB are composed into 5 MiB+ parts of one S3 object', async () => {
    const owner = await signedInUser();
    const partSizes: number[] = [];
    s3.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === 'UploadPartCommand') {
          partSizes.push(Number((args.input as { ContentLength?: number }).ContentLength));
        }
        return next(args);
      },
      { step: 'initialize', name: 'recordPartSizes' },
    );
    const file = randomBytes(7 * MiB);
    const id = identifier();
    const responses = await sendAll(owner, file, 2 * MiB, id);
    s3.middlewareStack.remove('recordPartSizes');
    for (const response of responses.slice(0, -1)) {
      expect(response.body).toEqual({ files: [], partialSuccess: true, partialIdentifier: id });
    }
    const last = responses.at(-1);
    expect(last?.body).toMatchObject({ partialSuccess: true, partialIdentifier: id });
    expect(last?.body.files[0]).toMatchObject({ type: 'video/mp4', pending: false });
    expect(last?.body.files[0].name).toMatch(/\.mp4$/);
    // 2+2+2 MiB staged and composed, then the last 1 MiB: every part but the last at least S3's
    // 5 MiB minimum (s3rver does not check it; S3 would refuse the completion).
    expect(partSizes).toEqual([6 * MiB, 1 * MiB]);
    const fetched = await download(last?.body.files[0].url);
    expect(sha(fetched.bytes)).toBe(sha(file));
    const got = await call('GET', `/api/user/files/${last?.body.files[0].id}`, { token: owner.token });
    expect(got.body).toMatchObject({ size: file.length, originalName: 'movie.mp4' });
    expect(await counters(owner.id)).toMatchObject({
      files: 1,
      bytes: file.length,
      pendingFiles: 0,
      pendingBytes: 0,
    });
    // Nothing staged is left behind; the identifier is done.
    expect(await keysUnder(`uploads/${owner.id}/`)).toEqual([]);
    const after = await sendChunk(owner, {
      identifier: id,
      start: 3 * MiB,
      bytes: Buffer.alloc(K),
      total: file.length,
      last: false,
    });
    expect(after.status).toBe(404);
  });

  test('the first chunk may leave the identifier to the service; inclusive ranges; file headers apply', async () => {
    const owner = await signedInUser();
    const file = Buffer.alloc(2 * K + 28, 'a small file in three chunks');
    const first = await sendChunk(owner, {
      start: 0,
      bytes: file.subarray(0, K),
      total: file.length,
      inclusive: true,
      headers: { 'x-zipline-password': 'pw', 'x-zipline-format': 'uuid' },
    });
    const id = first.body.partialIdentifier;
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    await sendChunk(owner, {
      identifier: id,
      start: K,
      bytes: file.subarray(K, 2 * K),
      total: file.length,
      inclusive: true,
    });
    const last = await sendChunk(owner, {
      identifier: id,
      start: 2 * K,
      bytes: file.subarray(2 * K),
      total: file.length,
      inclusive: true,
    });
    const name = last.body.files[0].name;
    expect(name).toMatch(/^[0-9a-f-]{36}\.mp4$/);
    expect((await download(`/raw/${name}`)).status).toBe(404);
    expect((await download(`/raw/${name}?pw=pw`)).bytes?.toString()).toBe(file.toString());
  });

  test('a resent chunk changes nothing', async () => {
    const owner = await signedInUser();
    const file = randomBytes(3 * K);
    const id = identifier();
    const chunk = (start: number) => ({
      identifier: id,
      start,
      bytes: file.subarray(start, start + K),
      total: 3 * K,
    });
    expect((await sendChunk(owner, chunk(0))).status).toBe(200);
    expect((await sendChunk(owner, chunk(K))).status).toBe(200);
    for (const start of [K, 0, K]) {
      const again = await sendChunk(owner, chunk(start));
      expect([start, again.status, again.body]).toEqual([
        start,
        200,
        { files: [], partialSuccess: true, partialIdentifier: id },
      ]);
    }
    const last = await sendChunk(owner, chunk(2 * K));
    expect(sha((await download(last.body.files[0].url)).bytes)).toBe(sha(file));
    expect(await counters(owner.id)).toMatchObject({ files: 1, bytes: 3 * K });
  });

  test('the last chunk sent again after completion answers the same file and changes nothing', async () => {
    const owner = await signedInUser();
    const file = randomBytes(3 * K);
    const id = identifier();
    const chunk = (start: number) => ({
      identifier: id,
      start,
      bytes: file.subarray(start, start + K),
      total: 3 * K,
    });
    for (const start of [0, K]) expect((await sendChunk(owner, chunk(start))).status).toBe(200);
    const completed = await sendChunk(owner, chunk(2 * K));
    expect(completed.status).toBe(200);
    const before = await partitionItems(owner.id);
    for (let resend = 0; resend < 2; resend++) {
      const again = await sendChunk(owner, chunk(2 * K));
      expect([again.status, again.body]).toEqual([200, completed.body]);
    }
    expect(await partitionItems(owner.id)).toEqual(before);
    expect(await counters(owner.id)).toMatchObject({ files: 1, bytes: 3 * K, pendingFiles: 0 });
    const listed = await call('GET', '/api/user/files', { token: owner.token });
    expect(listed.body.total).toBe(1);
    // A single-chunk upload whose client names the identifier: its resend opens no second file.
    const single = { identifier: identifier(), start: 0, bytes: Buffer.from('one chunk'), total: 9 };
    const first = await sendChunk(owner, single);
    expect([first.status, (await sendChunk(owner, single)).body]).toEqual([200, first.body]);
    expect(await counters(owner.id)).toMatchObject({ files: 2, bytes: 3 * K + 9, pendingFiles: 0 });
    // Once the file is deleted, the upload is gone as a whole.
    await call('DELETE', `/api/user/files/${completed.body.files[0].id}`, { token: owner.token });
    expect((await sendChunk(owner, chunk(2 * K))).status).toBe(404);
  });

  test('S3 refusing the assembly (InvalidPart) is a 409 that changes nothing; the last chunk again completes', async () => {
    const owner = await signedInUser();
    const file = randomBytes(2 * K);
    const id = identifier();
    const chunk = (start: number) => ({
      identifier: id,
      start,
      bytes: file.subarray(start, start + K),
      total: 2 * K,
    });
    expect((await sendChunk(owner, chunk(0))).status).toBe(200);
    // s3rver checks no part ETags, so S3's answer to a part that does not match is injected.
    const fault = injectS3Fault(
      'CompleteMultipartUploadCommand',
      () =>
        new S3ServiceException({
          name: 'InvalidPart',
          $fault: 'client',
          $metadata: { httpStatusCode: 400 },
          message: 'injected: One or more of the specified parts could not be found.',
        }),
    );
    let refused: Awaited<ReturnType<typeof sendChunk>>;
    try {
      refused = await sendChunk(owner, chunk(K));
      const afterRefusal = await partitionItems(owner.id);
      // The part arrived (its progress and ETag are recorded); nothing else changed: no file, the
      // reservation still pending.
      expect(afterRefusal.filter((item) => String(item.sk).startsWith('FILE#'))).toEqual([]);
      expect(await counters(owner.id)).toMatchObject({
        files: 1,
        bytes: 2 * K,
        pendingFiles: 1,
        pendingBytes: 2 * K,
      });
      // Refused again, it changes nothing at all.
      expect((await sendChunk(owner, chunk(K))).status).toBe(409);
      expect(await partitionItems(owner.id)).toEqual(afterRefusal);
    } finally {
      fault.stop();
    }
    expect([refused.status, refused.body.error]).toEqual([
      409,
      'the chunks could not be assembled into one file (S3 InvalidPart): send the last chunk again, or the whole file under a new x-zipline-p-identifier',
    ]);
    const completed = await sendChunk(owner, chunk(K));
    expect(completed.status).toBe(200);
    expect(sha((await download(completed.body.files[0].url)).bytes)).toBe(sha(file));
    expect(await counters(owner.id)).toMatchObject({
      files: 1,
      bytes: 2 * K,
      pendingFiles: 0,
      pendingBytes: 0,
    });
  });

  test('an unknown, missing or another user’s identifier is refused', async () => {
    const owner = await signedInUser();
    const other = await signedInUser();
    const id = identifier();
    await sendChunk(owner, { identifier: id, start: 0, bytes: Buffer.alloc(K, 1), total: 3 * K });
    const next = { start: K, bytes: Buffer.alloc(K, 2), total: 3 * K };
    const unknown = await sendChunk(owner, { ...next, identifier: identifier() });
    expect([unknown.status, unknown.body.error]).toEqual([
      404,
      expect.stringContaining('no chunked upload has this x-zipline-p-identifier'),
    ]);
    expect((await sendChunk(other, { ...next, identifier: id })).status).toBe(404);
    const missing = await sendChunk(owner, next);
    expect([missing.status, missing.body.error]).toEqual([
      400,
      expect.stringContaining('x-zipline-p-identifier is required'),
    ]);
    const bad = await sendChunk(owner, { ...next, identifier: 'no spaces please' });
    expect(bad.status).toBe(400);
    // The right one still continues.
    expect((await sendChunk(owner, { ...next, identifier: id })).status).toBe(200);
  });

  test('sizes that do not add up are 400, a gap is 409, and nothing moves on', async () => {
    const owner = await signedInUser();
    const id = identifier();
    await sendChunk(owner, { identifier: id, start: 0, bytes: Buffer.alloc(K, 1), total: 3 * K });
    const cases: [ChunkSpec, number, string][] = [
      [
        { identifier: id, start: K, bytes: Buffer.alloc(K), total: 4 * K },
        400,
        `this upload was opened for ${3 * K} bytes, not ${4 * K}`,
      ],
      [
        { identifier: id, start: K, bytes: Buffer.alloc(K), total: 3 * K, last: true },
        400,
        `x-zipline-p-lastchunk is true, but the chunks end at byte ${2 * K} of ${3 * K}`,
      ],
      [
        { identifier: id, start: 2 * K, bytes: Buffer.alloc(K), total: 3 * K, last: false },
        400,
        'the chunk that reaches the total must say x-zipline-p-lastchunk: true',
      ],
      [
        { identifier: id, start: 2.5 * K, bytes: Buffer.alloc(K), total: 3 * K },
        400,
        `the chunk ends at byte ${3.5 * K}, past the total of ${3 * K}`,
      ],
      [
        { identifier: id, start: 1.5 * K, bytes: Buffer.alloc(K), total: 3 * K, last: false },
        409,
        `this upload expects the chunk at byte ${K}`,
      ],
      [
        {
          identifier: id,
          start: K,
          bytes: Buffer.alloc(K),
          total: 3 * K,
          headers: { 'x-zipline-p-content-length': String(3 * K + 1) },
        },
        400,
        'x-zipline-p-content-length must be the total of content-range',
      ],
      [
        {
          identifier: id,
          start: K,
          bytes: Buffer.alloc(K),
          total: 3 * K,
          headers: { 'content-range': `bytes ${K}-${K + 50}/${3 * K}` },
        },
        400,
        `content-range does not match the chunk's ${K} bytes`,
      ],
    ];
    for (const [spec, status, error] of cases) {
      const response = await sendChunk(owner, spec);
      expect(response.body).toEqual({ error, statusCode: status });
    }
    const last = [K, 2 * K].map((start) => ({
      identifier: id,
      start,
      bytes: Buffer.alloc(K, 9),
      total: 3 * K,
    }));
    for (const spec of last) expect((await sendChunk(owner, spec)).status).toBe(200);
    expect(await counters(owner.id)).toMatchObject({ files: 1, bytes: 3 * K, pendingFiles: 0 });
  });

  test('the quota is checked for the declared size when the first chunk arrives; a chunk over 4 MiB is 413', async () => {
    const owner = await signedInUser();
    await updateUserQuota(owner.id, { filesQuota: 'BY_BYTES', maxBytes: String(K), maxFiles: null });
    const refused = await sendChunk(owner, {
      identifier: identifier(),
      start: 0,
      bytes: Buffer.alloc(K),
      total: K + 1,
    });
    expect([refused.status, refused.body.error]).toEqual([413, 'this upload would exceed your quota']);
    expect((await partitionItems(owner.id)).filter((item) => String(item.sk).startsWith('UPLOAD#'))).toEqual(
      [],
    );
    const big = await sendChunk(owner, {
      identifier: identifier(),
      start: 0,
      bytes: Buffer.alloc(4 * MiB),
      total: 8 * MiB,
    });
    expect([big.status, big.body.error]).toEqual([
      413,
      expect.stringMatching(
        /^request body is too large: the limit is 4194304 bytes; send a larger file in chunks/,
      ),
    ]);
  });

  test('an abandoned upload is reclaimed: reservation, staged chunks and session go', async () => {
    const owner = await signedInUser();
    await updateUserQuota(owner.id, { filesQuota: 'BY_FILES', maxFiles: 1, maxBytes: null });
    const id = identifier();
    await sendChunk(owner, { identifier: id, start: 0, bytes: Buffer.alloc(K, 1), total: 3 * K });
    expect(await keysUnder(`uploads/${owner.id}/`)).toHaveLength(1);
    // The one file of the quota is reserved by the open upload.
    expect((await uploadRequest(owner.token, [{ fileName: 'a.txt', content: 'a' }])).status).toBe(413);
    // An hour without a chunk passes (nothing here expires items by TTL).
    const session = (await partitionItems(owner.id)).find((item) => String(item.sk).startsWith('UPLOAD#'));
    await documents.send(
      new UpdateCommand({
        TableName: tableName,
        Key: uploadKey(owner.id, String(session?.sk).slice('UPLOAD#'.length)),
        UpdateExpression: 'SET reservedUntil = :past',
        ExpressionAttributeValues: { ':past': new Date(Date.now() - 1000).toISOString() },
      }),
    );
    expect((await uploadRequest(owner.token, [{ fileName: 'a.txt', content: 'a' }])).status).toBe(200);
    expect(await keysUnder(`uploads/${owner.id}/`)).toEqual([]);
    const late = await sendChunk(owner, {
      identifier: id,
      start: K,
      bytes: Buffer.alloc(K, 2),
      total: 3 * K,
    });
    expect(late.status).toBe(404);
    expect(await counters(owner.id)).toMatchObject({ files: 1, bytes: 1, pendingFiles: 0, pendingBytes: 0 });
  });
});
