import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import sharp from 'sharp';
import { IMAGE_MAX_INPUT_PIXELS } from '#shared/files/images';
import { call } from '../support/client.ts';
import { download, upload } from '../support/files.ts';
import { feedLog, objectEvents } from '../support/object-events.ts';
import { pngBomb } from '../support/pixels.ts';
import { signedInUser } from '../support/users.ts';

type User = Awaited<ReturnType<typeof signedInUser>>;

/** A photo-like PNG: a gradient, so the WebP is not trivially small. */
const photo = (width: number, height: number) =>
  sharp(
    Buffer.from(
      Array.from({ length: width * height }, (_, index) => {
        const x = index % width;
        const y = Math.floor(index / width);
        return [(x * 255) / width, (y * 255) / height, 128];
      }).flat(),
    ),
    { raw: { width, height, channels: 3 } },
  )
    .png()
    .toBuffer();

/** Uploads, then waits for what S3's object-created event started (the thumbnail) to finish. */
async function uploadAndSettle(user: User, parts: Parameters<typeof upload>[1], headers = {}) {
  const files = await upload(user.token, parts, headers);
  await objectEvents.settled();
  return files;
}

const fileOf = async (user: User, id: string) =>
  (await call('GET', `/api/user/files/${id}`, { token: user.token })).body;

/** Follows the owner's thumbnail path to the WebP bytes. */
async function thumbnailOf(user: User, path: string) {
  const redirect = await call('GET', path, { token: user.token });
  expect(redirect.status).toBe(302);
  const response = await fetch(redirect.headers.location as string);
  return { response, bytes: Buffer.from(await response.arrayBuffer()), location: redirect.headers.location };
}

test('an image upload gets a WebP thumbnail of 320 px on its longer side, counting no view; the File resource says where', async () => {
  const user = await signedInUser();
  const original = await photo(1200, 600);
  const [file] = await uploadAndSettle(user, [
    { fileName: 'wide.png', type: 'image/png', content: original },
  ]);
  const resource = await fileOf(user, file?.id as string);
  expect(resource.thumbnail).toEqual({ path: `/api/user/files/${file?.id}/thumbnail` });
  const listed = await call('GET', '/api/user/files', { token: user.token });
  expect(listed.body.page[0].thumbnail).toEqual(resource.thumbnail);

  const { response, bytes } = await thumbnailOf(user, resource.thumbnail.path);
  expect(response.headers.get('content-type')).toBe('image/webp');
  const metadata = await sharp(bytes).metadata();
  expect([metadata.format, metadata.width, metadata.height]).toEqual(['webp', 320, 160]);
  expect(bytes.length).toBeLessThan(10_000);
  expect(bytes.length).toBeLessThan(original.length);
  expect(resource.views).toBe(0);
  // Only the owner has the route.
  const other = await signedInUser();
  expect((await call('GET', resource.thumbnail.path, { token: other.token })).status).toBe(404);
  expect((await call('GET', resource.thumbnail.path)).status).toBe(401);
});

test('tall, small and JPEG images: fit inside 320×320, never enlarged', async () => {
  const user = await signedInUser();
  const tall = await photo(300, 900);
  const small = await photo(100, 50);
  const jpeg = await sharp(await photo(640, 480))
    .jpeg()
    .toBuffer();
  const files = await uploadAndSettle(user, [
    { fileName: 'tall.png', type: 'image/png', content: tall },
    { fileName: 'small.png', type: 'image/png', content: small },
    { fileName: 'photo.jpg', type: 'image/jpeg', content: jpeg },
  ]);
  const sizes = [];
  for (const file of files) {
    const { bytes } = await thumbnailOf(user, (await fileOf(user, file.id)).thumbnail.path);
    const metadata = await sharp(bytes).metadata();
    sizes.push([metadata.width, metadata.height]);
  }
  expect(sizes).toEqual([
    [107, 320],
    [100, 50],
    [320, 240],
  ]);
});

test('no thumbnail for what is not a raster image, and a thumbnail failure never fails the upload', async () => {
  const user = await signedInUser();
  const svg =
    '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>';
  const broken = Buffer.from('this is no PNG at all');
  const files = await uploadAndSettle(user, [
    { fileName: 'note.txt', type: 'text/plain', content: 'hello' },
    { fileName: 'drawing.svg', type: 'image/svg+xml', content: svg },
    { fileName: 'broken.png', type: 'image/png', content: broken },
  ]);
  for (const file of files) {
    const resource = await fileOf(user, file.id);
    expect(resource.thumbnail).toBeNull();
    expect((await call('GET', `/api/user/files/${file.id}/thumbnail`, { token: user.token })).status).toBe(
      404,
    );
  }
  // The broken image was tried, and is served as uploaded.
  expect(feedLog.some((line) => line.includes('"failed"'))).toBe(true);
  const fetched = await download(files[2]?.url as string);
  expect(fetched.bytes?.equals(broken)).toBe(true);
});

test("decompression bombs get no thumbnail, and an image beside them still does (one pixel limit, the Lambda function's)", async () => {
  const user = await signedInUser();
  // The bomb: 292 KB that claim 10,000×10,000 pixels (Adam7-interlaced: libvips would hold
  // them all), and one just past the limit.
  const bomb = await pngBomb(10_000, 10_000, { interlaced: true });
  expect(bomb.length).toBeLessThan(300_000);
  const justOver = await pngBomb(10_000, Math.floor(IMAGE_MAX_INPUT_PIXELS / 10_000) + 1);
  const files = await uploadAndSettle(user, [
    { fileName: 'bomb.png', type: 'image/png', content: bomb },
    { fileName: 'bomb-again.png', type: 'image/png', content: bomb },
    { fileName: 'just-over.png', type: 'image/png', content: justOver },
    { fileName: 'photo.png', type: 'image/png', content: await photo(640, 480) },
  ]);
  const thumbnails = await Promise.all(
    files.map(async (file) => (await fileOf(user, file.id)).thumbnail?.path ?? null),
  );
  expect(thumbnails.slice(0, 3)).toEqual([null, null, null]);
  expect(thumbnails[3]).toBe(`/api/user/files/${files[3]?.id}/thumbnail`);
  expect(feedLog.filter((line) => line.includes('exceeds pixel limit'))).toHaveLength(3);
  // The uploads stand: the bomb downloads as it was sent.
  expect((await download(files[0]?.url as string)).bytes?.equals(bomb)).toBe(true);
});

/** The page's meta tags, by property or name. */
const metaOf = (html: string) => (key: string) =>
  new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)">`).exec(html)?.[1]?.replaceAll('&amp;', '&');

test("embeds show the original image under the large card; with a view limit through the page's presigned URL, the page alone counting the view", async () => {
  const user = await signedInUser();
  await call('PATCH', '/api/user', { token: user.token, json: { view: { enabled: true, embed: true } } });
  const [file] = await uploadAndSettle(
    user,
    [{ fileName: 'card.png', type: 'image/png', content: await photo(800, 400) }],
    { 'x-zipline-max-views': '1' },
  );
  const page = await call('GET', `/view/${file?.name}`);
  expect(page.status).toBe(200);
  const meta = metaOf(page.text);
  expect([meta('twitter:card'), meta('og:image:type'), meta('og:image:width')]).toEqual([
    'summary_large_image',
    'image/png',
    undefined,
  ]);
  // A file with a view limit: the presigned URL (a stable link would outlive the one view).
  expect(new URL(meta('og:image') as string).searchParams.get('X-Amz-Expires')).toBe('900');
  const image = await fetch(meta('og:image') as string);
  expect((await sharp(Buffer.from(await image.arrayBuffer())).metadata()).width).toBe(800);
  expect((await fileOf(user, file?.id as string)).views).toBe(1);
  expect((await call('GET', `/view/${file?.name}`)).status).toBe(404);
});

test('an image over 5 MB embeds its 320 px preview under the small card, through a stable link that counts nothing and ends with the file', async () => {
  const user = await signedInUser();
  await call('PATCH', '/api/user', { token: user.token, json: { view: { enabled: true, embed: true } } });
  // Noise does not compress: about 6 MB of PNG, uploaded the way large files go.
  const noise = await sharp(
    Buffer.from(Array.from({ length: 1500 * 1400 * 3 }, () => Math.floor(Math.random() * 256))),
    {
      raw: { width: 1500, height: 1400, channels: 3 },
    },
  )
    .png({ compressionLevel: 0 })
    .toBuffer();
  expect(noise.length).toBeGreaterThan(5_000_000);
  const started = await call('POST', '/api/user/files/uploads', {
    token: user.token,
    json: { originalName: 'big.png', size: noise.length, type: 'image/png' },
  });
  await fetch(started.body.url, { method: 'PUT', headers: started.body.headers, body: noise });
  const completed = await call('POST', `/api/user/files/uploads/${started.body.id}/complete`, {
    token: user.token,
  });
  await objectEvents.settled();
  const { id, name } = completed.body.files[0] as { id: string; name: string };
  const page = await call('GET', `/view/${name}`);
  const meta = metaOf(page.text);
  expect([
    meta('twitter:card'),
    meta('og:image:type'),
    meta('og:image:width'),
    meta('og:image:height'),
  ]).toEqual(['summary', 'image/webp', '320', '299']);
  const link = new URL(meta('og:image') as string);
  expect(`${link.pathname}${link.search}`).toMatch(new RegExp(`^/raw/${name}\\?embed=[\\w-]{22}$`));
  expect(meta('twitter:image')).toBe(link.href);
  // Fetched any number of times, later too: the preview, no view counted.
  for (let fetchNumber = 0; fetchNumber < 2; fetchNumber++) {
    const redirect = await call('GET', `${link.pathname}${link.search}`);
    expect(redirect.status).toBe(302);
    const preview = await fetch(redirect.headers.location as string);
    expect((await sharp(Buffer.from(await preview.arrayBuffer())).metadata()).width).toBe(320);
  }
  expect((await fileOf(user, id)).views).toBe(1);
  // With a view limit, or a password (through the page's form), the stable link stops serving and
  // the page's presigned URL of the preview takes its place.
  await call('PATCH', `/api/user/files/${id}`, { token: user.token, json: { maxViews: 10 } });
  expect((await call('GET', `${link.pathname}${link.search}`)).status).toBe(404);
  const limited = metaOf((await call('GET', `/view/${name}`)).text);
  expect([limited('twitter:card'), limited('og:image:width')]).toEqual(['summary', '320']);
  const presigned = new URL(limited('og:image') as string);
  expect([presigned.pathname.startsWith('/'), presigned.searchParams.get('X-Amz-Expires')]).toEqual([
    true,
    '900',
  ]);
  expect(presigned.pathname).toMatch(/^\/[^/]+\/thumbnails\//);
  const secret = { maxViews: null, password: 'preview secret' };
  await call('PATCH', `/api/user/files/${id}`, { token: user.token, json: secret });
  const unlocked = await call('POST', `/view/${name}`, {
    raw: new URLSearchParams({ password: 'preview secret' }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  expect(new URL(metaOf(unlocked.text)('og:image') as string).pathname).toMatch(/^\/[^/]+\/thumbnails\//);
  await call('PATCH', `/api/user/files/${id}`, { token: user.token, json: { password: null } });
  // Another token, or the file deleted: /raw's 404.
  expect((await call('GET', `/raw/${name}?embed=${'A'.repeat(22)}`)).status).toBe(404);
  expect((await call('GET', `/raw/${name}?embed=short`)).status).toBe(400);
  await call('DELETE', `/api/user/files/${id}`, { token: user.token });
  expect((await call('GET', `${link.pathname}${link.search}`)).status).toBe(404);
}, 120_000);

test('deleting a file deletes its thumbnail', async () => {
  const user = await signedInUser();
  const [file] = await uploadAndSettle(user, [
    { fileName: 'gone.png', type: 'image/png', content: await photo(400, 400) },
  ]);
  const { location } = await thumbnailOf(user, (await fileOf(user, file?.id as string)).thumbnail.path);
  expect((await call('DELETE', `/api/user/files/${file?.id}`, { token: user.token })).status).toBe(200);
  expect((await fetch(location as string)).status).toBe(404);
});

test('a file deleted while its thumbnail is made: the thumbnail is deleted too', async () => {
  // Imported here, not above: the client must see this file's S3 server (support/object-events.ts).
  const { bucketName, s3 } = await import('#shared/s3/client');
  const user = await signedInUser();
  // The owner deletes the file just as the thumbnail is written (between the function's read of the
  // file and its record of the thumbnail), through the real API and servers.
  let deleted: Promise<unknown> | undefined;
  let thumbnailKey: string | undefined;
  s3.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as { Key?: string };
      if (context.commandName === 'PutObjectCommand' && input.Key?.startsWith('thumbnails/') && !deleted) {
        thumbnailKey = input.Key;
        const fileId = input.Key.split('/')
          .pop()
          ?.replace(/\.webp$/, '');
        deleted = call('DELETE', `/api/user/files/${fileId}`, { token: user.token });
        await deleted;
      }
      return next(args);
    },
    { step: 'initialize', name: 'deleteWhileMaking' },
  );
  try {
    await uploadAndSettle(user, [
      { fileName: 'racing.png', type: 'image/png', content: await photo(200, 200) },
    ]);
  } finally {
    s3.middlewareStack.remove('deleteWhileMaking');
  }
  expect(((await deleted) as { status: number }).status).toBe(200);
  expect(feedLog.some((line) => line.includes('"skipped":"file gone"'))).toBe(true);
  const listing = await s3.send(new ListObjectsV2Command({ Bucket: bucketName, Prefix: thumbnailKey }));
  expect(listing.Contents ?? []).toEqual([]);
});
