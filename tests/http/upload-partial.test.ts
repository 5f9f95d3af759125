import { randomBytes } from 'node:crypto';
import { MIN_CHUNK_BYTES } from '#shared/files/reservation/staged-chunks';
import { counters, keysUnder, sha } from '../support/chunks.ts';
import { call } from '../support/client.ts';
import { download } from '../support/files.ts';
import { multipart } from '../support/multipart.ts';
import { signedInUser } from '../support/users.ts';

type Owner = Awaited<ReturnType<typeof signedInUser>>;

const MiB = 1024 * 1024;
const K = MIN_CHUNK_BYTES;

/** Zipline's `bytes('3mb')`: its units are binary. */
const parseSize = (text: string) => {
  const match = /^(\d+)mb$/.exec(text);
  if (!match) throw new Error(`unexpected chunk size ${text}`);
  return Number(match[1]) * MiB;
};

/**
 * One chunk as Zipline 4.4's uploader (`uploadPartialFiles`) sends it to `/api/upload/partial`: the
 * blob in a multipart body, the range's end exclusive, the identifier only once the server made one.
 */
function sendPartial(
  owner: Owner,
  spec: { identifier?: string; start: number; bytes: Buffer; total: number; range?: string | null },
  headers: Record<string, string> = {},
) {
  const { body, contentType } = multipart([
    { fileName: 'blob', type: 'application/octet-stream', content: spec.bytes },
  ]);
  const end = spec.start + spec.bytes.length;
  const range = spec.range === undefined ? `bytes ${spec.start}-${end}/${spec.total}` : spec.range;
  return call('POST', '/api/upload/partial', {
    token: owner.token,
    raw: body,
    headers: {
      'content-type': contentType,
      ...(range === null ? {} : { 'content-range': range }),
      'x-zipline-p-filename': encodeURIComponent('holiday film.mp4'),
      'x-zipline-p-content-type': 'video/mp4',
      'x-zipline-p-content-length': String(spec.total),
      'x-zipline-p-lastchunk': String(end === spec.total),
      ...(spec.identifier ? { 'x-zipline-p-identifier': spec.identifier } : {}),
      ...headers,
    },
  });
}

/** Opens a partial upload of `total` bytes with a first chunk of `first` bytes; answers its identifier. */
async function open(owner: Owner, total: number, first = K): Promise<string> {
  const response = await sendPartial(owner, { start: 0, bytes: randomBytes(first), total });
  expect(response.status).toBe(200);
  return response.body.partialIdentifier;
}

test('a 21 MiB file sent exactly as a Zipline 4.4 client does comes back byte-identical', async () => {
  const owner = await signedInUser();
  const advertised = await call('GET', '/api/server/public');
  const chunkSize = parseSize(advertised.body.chunks.size);
  const file = randomBytes(21 * MiB);
  let identifier: string | undefined;
  const answers = [];
  for (let start = 0; start < file.length; start += chunkSize) {
    const bytes = file.subarray(start, Math.min(start + chunkSize, file.length));
    const answer = await sendPartial(owner, { identifier, start, bytes, total: file.length });
    expect(answer.status).toBe(200);
    if (start === 0) identifier = answer.body.partialIdentifier;
    answers.push(answer.body);
  }
  expect(answers).toHaveLength(7);
  expect(identifier).toMatch(/^[0-9a-f]{32}$/);
  // The identifier comes on the first answer only; every answer says partialSuccess.
  expect(answers[0]).toEqual({ files: [], partialSuccess: true, partialIdentifier: identifier });
  for (const answer of answers.slice(1, -1)) expect(answer).toEqual({ files: [], partialSuccess: true });
  const last = answers.at(-1);
  expect(last).not.toHaveProperty('partialIdentifier');
  expect(last.files).toHaveLength(1);
  expect(last.files[0]).toMatchObject({ type: 'video/mp4', pending: false });
  const fetched = await download(last.files[0].url);
  expect(fetched.bytes?.length).toBe(file.length);
  expect(sha(fetched.bytes)).toBe(sha(file));
  const got = await call('GET', `/api/user/files/${last.files[0].id}`, { token: owner.token });
  expect(got.body).toMatchObject({ size: file.length, originalName: 'holiday film.mp4' });
  expect(await counters(owner.id)).toMatchObject({ files: 1, bytes: file.length, pendingFiles: 0 });
  expect(await keysUnder(`uploads/${owner.id}/`)).toEqual([]);
}, 300_000);

test('a resent chunk changes nothing; the last chunk sent again answers the same file', async () => {
  const owner = await signedInUser();
  const file = randomBytes(3 * K);
  const first = await sendPartial(owner, { start: 0, bytes: file.subarray(0, K), total: file.length });
  const identifier = first.body.partialIdentifier;
  const second = { identifier, start: K, bytes: file.subarray(K, 2 * K), total: file.length };
  expect((await sendPartial(owner, second)).body).toEqual({ files: [], partialSuccess: true });
  const before = await counters(owner.id);
  const again = await sendPartial(owner, second);
  expect(again.status).toBe(200);
  expect(again.body).toEqual({ files: [], partialSuccess: true });
  expect(await counters(owner.id)).toEqual(before);
  const lastChunk = { identifier, start: 2 * K, bytes: file.subarray(2 * K), total: file.length };
  const done = await sendPartial(owner, lastChunk);
  const repeated = await sendPartial(owner, lastChunk);
  expect(repeated.status).toBe(200);
  expect(repeated.body.files[0].id).toBe(done.body.files[0].id);
  expect(sha((await download(done.body.files[0].url)).bytes)).toBe(sha(file));
  expect(await counters(owner.id)).toMatchObject({ files: 1, bytes: file.length, pendingFiles: 0 });
});

test('a bad content-range is 400 and reserves nothing', async () => {
  const owner = await signedInUser();
  const bytes = randomBytes(K);
  const cases: (string | null)[] = [
    null,
    'bytes 0-10/5',
    'items 0-65536/200000',
    // The end is exclusive here: an inclusive range (older clients on /api/upload) does not match.
    `bytes 0-${K - 1}/200000`,
    `bytes 0-${K + 1}/200000`,
  ];
  for (const range of cases) {
    const response = await sendPartial(owner, { start: 0, bytes, total: 200_000, range });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatch(/content-range/);
  }
  expect((await counters(owner.id))?.pendingFiles ?? 0).toBe(0);
  expect(await keysUnder(`uploads/${owner.id}/`)).toEqual([]);
});

test("another user's identifier, or one the server never made, is 404", async () => {
  const owner = await signedInUser();
  const other = await signedInUser();
  const identifier = await open(owner, 3 * K);
  const chunk = { identifier, start: K, bytes: randomBytes(K), total: 3 * K };
  const response = await sendPartial(other, chunk);
  expect(response.status).toBe(404);
  // Nor may a first chunk name an identifier of its own: the server makes them.
  const named = await sendPartial(other, {
    identifier: 'mine',
    start: 0,
    bytes: randomBytes(K),
    total: 3 * K,
  });
  expect(named.status).toBe(404);
  expect((await counters(other.id))?.pendingFiles ?? 0).toBe(0);
  // The owner's upload is untouched by either.
  expect((await sendPartial(owner, chunk)).status).toBe(200);
});

test('a chunk above the function payload limit is 413 naming the limit', async () => {
  const owner = await signedInUser();
  const total = 8 * MiB;
  const response = await sendPartial(owner, { start: 0, bytes: randomBytes(4 * MiB + 1), total });
  expect(response.status).toBe(413);
  expect(response.body.error).toContain(String(4 * MiB));
  expect(response.body.error).toContain(String(3 * MiB));
});

test('at most 4 partial uploads at once; the incomplete list shows them and abandoning one makes room', async () => {
  const owner = await signedInUser();
  const ids = [];
  for (let i = 0; i < 4; i++) ids.push(await open(owner, 10 * K));
  const fifth = await sendPartial(owner, { start: 0, bytes: randomBytes(K), total: 10 * K });
  expect(fifth.status).toBe(429);
  expect(fifth.body.error).toMatch(/at most 4 uploads can be pending/);
  // One moves on by a chunk: the list says how far each has come.
  await sendPartial(owner, { identifier: ids[0], start: K, bytes: randomBytes(K), total: 10 * K });
  const listed = await call('GET', '/api/user/files/incomplete', { token: owner.token });
  expect(listed.status).toBe(200);
  expect(listed.body).toHaveLength(4);
  const received = listed.body.map((upload: { bytesReceived: number }) => upload.bytesReceived);
  received.sort((a: number, b: number) => a - b);
  expect(received).toEqual([K, K, K, 2 * K]);
  for (const upload of listed.body) {
    expect(upload).toMatchObject({
      status: 'PENDING',
      chunksTotal: 10,
      size: 10 * K,
      userId: owner.id,
      metadata: { file: { filename: 'holiday film.mp4', type: 'video/mp4' } },
    });
  }
  expect(await keysUnder(`uploads/${owner.id}/`)).toHaveLength(5);
  // Another user sees none of them, nor can abandon them.
  const other = await signedInUser();
  expect((await call('GET', '/api/user/files/incomplete', { token: other.token })).body).toEqual([]);
  const ownIds = listed.body.map((upload: { id: string }) => upload.id);
  const foreign = await call('DELETE', '/api/user/files/incomplete', {
    token: other.token,
    json: { id: ownIds },
  });
  expect(foreign.body).toEqual({ count: 0 });
  const abandoned = await call('DELETE', '/api/user/files/incomplete', {
    token: owner.token,
    json: { id: [ownIds[0], ownIds[0]] },
  });
  expect(abandoned.status).toBe(200);
  expect(abandoned.body).toEqual({ count: 1 });
  expect(await counters(owner.id)).toMatchObject({ pendingFiles: 3, files: 3, bytes: 30 * K });
  expect((await call('GET', '/api/user/files/incomplete', { token: owner.token })).body).toHaveLength(3);
  expect(await keysUnder(`uploads/${owner.id}/`)).toHaveLength(5 - listed.body[0].chunksComplete);
  // The room is back: a fifth upload opens now.
  expect((await sendPartial(owner, { start: 0, bytes: randomBytes(K), total: 10 * K })).status).toBe(200);
  const bad = await call('DELETE', '/api/user/files/incomplete', { token: owner.token, json: { id: 'x' } });
  expect(bad.status).toBe(400);
});

test('the older chunk headers on /api/upload keep their client-made identifiers and inclusive ends', async () => {
  const owner = await signedInUser();
  const file = randomBytes(2 * K);
  const headers = (start: number, end: number) => ({
    'x-zipline-p-identifier': 'older-client',
    'content-range': `bytes ${start}-${end}/${file.length}`,
  });
  const send = (start: number, end: number, bytes: Buffer) => {
    const { body, contentType } = multipart([
      { fileName: 'blob', type: 'application/octet-stream', content: bytes },
    ]);
    return call('POST', '/api/upload', {
      token: owner.token,
      raw: body,
      headers: {
        'content-type': contentType,
        'x-zipline-p-filename': 'old.bin',
        'x-zipline-p-lastchunk': String(end + 1 === file.length),
        ...headers(start, end),
      },
    });
  };
  const first = await send(0, K - 1, file.subarray(0, K));
  expect(first.body).toEqual({ files: [], partialSuccess: true, partialIdentifier: 'older-client' });
  const last = await send(K, 2 * K - 1, file.subarray(K));
  expect(last.body.partialIdentifier).toBe('older-client');
  expect(sha((await download(last.body.files[0].url)).bytes)).toBe(sha(file));
});
