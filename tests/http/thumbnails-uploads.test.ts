import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import sharp from 'sharp';
import { MIN_CHUNK_BYTES } from '#shared/files/reservation/staged-chunks';
import { call } from '../support/client.ts';
import { download } from '../support/files.ts';
import { multipart } from '../support/multipart.ts';
import { feedLog, objectEvents } from '../support/object-events.ts';
import { signedInUser } from '../support/users.ts';

type User = Awaited<ReturnType<typeof signedInUser>>;

/** A PNG of this size, a gradient (so its WebP is not trivially small). */
const picture = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 30, g: 140, b: 90 } } })
    .composite([
      {
        input: Buffer.from(
          `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><circle cx="${width / 2}" cy="${height / 2}" r="${height / 3}" fill="#fc0"/></svg>`,
        ),
      },
    ])
    .png()
    .toBuffer();

const fileOf = async (user: User, id: string) =>
  (await call('GET', `/api/user/files/${id}`, { token: user.token })).body;

/** The WebP behind a File resource's `thumbnail` path, with its size in pixels. */
async function thumbnailOf(user: User, path: string) {
  const redirect = await call('GET', path, { token: user.token });
  expect(redirect.status).toBe(302);
  const bytes = Buffer.from(await (await fetch(redirect.headers.location as string)).arrayBuffer());
  const { format, width, height } = await sharp(bytes).metadata();
  return { format, width, height };
}

/** Starts a presigned upload and PUTs the bytes to its URL as a client does (not completed yet). */
async function presignedPut(user: User, bytes: Buffer, originalName: string, type: string) {
  const started = await call('POST', '/api/user/files/uploads', {
    token: user.token,
    json: { originalName, size: bytes.length, type },
  });
  expect(started.status).toBe(200);
  const put = await fetch(started.body.url, { method: 'PUT', body: bytes, headers: started.body.headers });
  expect(put.status).toBe(200);
  return started.body.id as string;
}

const complete = (user: User, uploadId: string) =>
  call('POST', `/api/user/files/uploads/${uploadId}/complete`, { token: user.token });

/** Sends a file as Zipline's uploader does, in chunks of `size` bytes; answers the last response. */
async function chunkedUpload(user: User, bytes: Buffer, size: number, fileName: string, type: string) {
  let identifier: string | undefined;
  let response: Awaited<ReturnType<typeof call>> | undefined;
  for (let start = 0; start < bytes.length; start += size) {
    const chunk = bytes.subarray(start, Math.min(start + size, bytes.length));
    const { body, contentType } = multipart([
      { fileName: 'blob', type: 'application/octet-stream', content: chunk },
    ]);
    response = await call('POST', '/api/upload', {
      token: user.token,
      raw: body,
      headers: {
        'content-type': contentType,
        'content-range': `bytes ${start}-${start + chunk.length}/${bytes.length}`,
        'x-zipline-p-filename': fileName,
        'x-zipline-p-content-type': type,
        'x-zipline-p-content-length': String(bytes.length),
        'x-zipline-p-lastchunk': String(start + chunk.length === bytes.length),
        ...(identifier ? { 'x-zipline-p-identifier': identifier } : {}),
      },
    });
    expect(response.status).toBe(200);
    identifier = response.body.partialIdentifier;
  }
  return response as Awaited<ReturnType<typeof call>>;
}

async function thumbnailKeys(userId: string) {
  // Loaded once object-events.ts has pointed S3_ENDPOINT at this file's S3 server.
  const { bucketName, s3 } = await import('#shared/s3/client');
  const listing = await s3.send(
    new ListObjectsV2Command({ Bucket: bucketName, Prefix: `thumbnails/${userId}/` }),
  );
  return (listing.Contents ?? []).map((object) => object.Key);
}

test('a presigned upload gets its thumbnail once completed: its PUT alone makes none', async () => {
  const user = await signedInUser();
  const uploadId = await presignedPut(user, await picture(900, 600), 'holiday.png', 'image/png');
  await objectEvents.settled();
  // The client's PUT comes before any file exists (and may never become one).
  expect(feedLog.some((line) => line.includes(uploadId) && line.includes('"not yet a file"'))).toBe(true);
  expect(await thumbnailKeys(user.id)).toEqual([]);

  const completed = await complete(user, uploadId);
  expect(completed.status).toBe(200);
  await objectEvents.settled();
  const [file] = completed.body.files;
  const resource = await fileOf(user, file.id);
  expect(resource.thumbnail).toEqual({ path: `/api/user/files/${file.id}/thumbnail` });
  expect(await thumbnailOf(user, resource.thumbnail.path)).toEqual({
    format: 'webp',
    width: 320,
    height: 213,
  });
  expect(resource.views).toBe(0);
});

test('a chunked upload (Zipline) gets its thumbnail from its multipart completion', async () => {
  const user = await signedInUser();
  const image = await picture(600, 800);
  const chunkSize = Math.max(MIN_CHUNK_BYTES, Math.ceil(image.length / 3));
  const last = await chunkedUpload(user, image, chunkSize, 'portrait.png', 'image/png');
  await objectEvents.settled();
  const [file] = last.body.files;
  const resource = await fileOf(user, file.id);
  expect(resource.thumbnail).toEqual({ path: `/api/user/files/${file.id}/thumbnail` });
  expect(await thumbnailOf(user, resource.thumbnail.path)).toEqual({
    format: 'webp',
    width: 240,
    height: 320,
  });
});

test('bytes that do not decode, through either path: the upload stands, without a thumbnail', async () => {
  const user = await signedInUser();
  const broken = Buffer.alloc(2 * MIN_CHUNK_BYTES + 5, 'no PNG in here, whatever the type says');
  const uploadId = await presignedPut(user, broken, 'broken.png', 'image/png');
  const completed = await complete(user, uploadId);
  expect(completed.status).toBe(200);
  const chunked = await chunkedUpload(user, broken, MIN_CHUNK_BYTES, 'broken-too.png', 'image/png');
  await objectEvents.settled();
  for (const uploaded of [completed.body.files[0], chunked.body.files[0]]) {
    expect((await fileOf(user, uploaded.id)).thumbnail).toBeNull();
    expect((await download(uploaded.url)).bytes?.equals(broken)).toBe(true);
  }
  const failures = feedLog.filter((line) => line.includes(user.id) && line.includes('"failed"'));
  expect(failures).toHaveLength(2);
});

test('a presigned upload deleted right away: its thumbnail goes with it, and its retagging makes none', async () => {
  const user = await signedInUser();
  const uploadId = await presignedPut(user, await picture(400, 400), 'gone.png', 'image/png');
  const completed = await complete(user, uploadId);
  await objectEvents.settled();
  expect(await thumbnailKeys(user.id)).toHaveLength(1);
  const [file] = completed.body.files;
  // While its URL may still be valid the object stays, retagged pending (its URL can only create).
  expect((await call('DELETE', `/api/user/files/${file.id}`, { token: user.token })).status).toBe(200);
  await objectEvents.settled();
  expect(await thumbnailKeys(user.id)).toEqual([]);
  expect(feedLog.some((line) => line.includes(uploadId) && line.includes('"file gone"'))).toBe(true);
});
