import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { ffmpegBinary } from '#shared/thumbnails/video';
import { call } from '../support/client.ts';
import { download, upload } from '../support/files.ts';
import { feedLog, objectEvents } from '../support/object-events.ts';
import { signedInUser } from '../support/users.ts';

type User = Awaited<ReturnType<typeof signedInUser>>;

const workDir = mkdtempSync(join(tmpdir(), 'file-service-videos-'));

/** A real video of ffmpeg's test pattern, made by the ffmpeg the thumbnail function runs here. */
function testVideo(name: string, size: string, codec: string[]): Buffer {
  const path = join(workDir, name);
  execFileSync(ffmpegBinary(), [
    ...['-hide_banner', '-loglevel', 'error', '-f', 'lavfi'],
    ...['-i', `testsrc=duration=2:size=${size}:rate=10`, ...codec, '-y', path],
  ]);
  return readFileSync(path);
}

const mp4 = () => testVideo('pattern.mp4', '640x360', ['-c:v', 'mpeg4']);
const webm = () => testVideo('pattern.webm', '320x240', ['-c:v', 'libvpx', '-b:v', '200k']);

async function uploadAndSettle(user: User, parts: Parameters<typeof upload>[1]) {
  const files = await upload(user.token, parts);
  await objectEvents.settled();
  return files;
}

const fileOf = async (user: User, id: string) =>
  (await call('GET', `/api/user/files/${id}`, { token: user.token })).body;

/** The thumbnail's WebP bytes, through the owner's route (the dashboard grid's). */
async function thumbnailBytes(user: User, path: string): Promise<Buffer> {
  const redirect = await call('GET', path, { token: user.token });
  expect(redirect.status).toBe(302);
  return Buffer.from(await (await fetch(redirect.headers.location as string)).arrayBuffer());
}

const metaOf = (html: string) => (key: string) =>
  new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)">`).exec(html)?.[1]?.replaceAll('&amp;', '&');

test('an MP4 and a WebM upload each get a WebP thumbnail of a frame of their first second, fit inside 320 px', async () => {
  const user = await signedInUser();
  const videos = [mp4(), webm()];
  const files = await uploadAndSettle(user, [
    { fileName: 'pattern.mp4', type: 'video/mp4', content: videos[0] as Buffer },
    { fileName: 'pattern.webm', type: 'video/webm', content: videos[1] as Buffer },
  ]);
  const shapes = [];
  for (const file of files) {
    const resource = await fileOf(user, file.id);
    expect(resource.thumbnail).toEqual({ path: `/api/user/files/${file.id}/thumbnail` });
    const bytes = await thumbnailBytes(user, resource.thumbnail.path);
    const metadata = await sharp(bytes).metadata();
    // The test pattern's colour bars: a real picture, not a blank frame.
    const { channels } = await sharp(bytes).stats();
    shapes.push([metadata.format, metadata.width, metadata.height, (channels[0]?.stdev ?? 0) > 20]);
    expect(bytes.length).toBeGreaterThan(1_000);
    expect(bytes.length).toBeLessThan(30_000);
    // Making it counted no view, and the video downloads as uploaded.
    expect(resource.views).toBe(0);
  }
  expect(shapes).toEqual([
    ['webp', 320, 180, true],
    ['webp', 320, 240, true],
  ]);
  expect((await download(files[1]?.url as string)).bytes?.equals(videos[1] as Buffer)).toBe(true);
}, 120_000);

test("a video's view page shows its thumbnail as og:image beside og:video, through the stable link that counts no view", async () => {
  const user = await signedInUser();
  await call('PATCH', '/api/user', { token: user.token, json: { view: { enabled: true, embed: true } } });
  const [file] = await uploadAndSettle(user, [{ fileName: 'clip.mp4', type: 'video/mp4', content: mp4() }]);
  const page = await call('GET', `/view/${file?.name}`);
  expect(page.status).toBe(200);
  const meta = metaOf(page.text);
  expect([
    meta('og:type'),
    meta('og:image:type'),
    meta('og:image:width'),
    meta('og:image:height'),
    meta('og:video:type'),
    meta('twitter:card'),
  ]).toEqual(['video.other', 'image/webp', '320', '180', 'video/mp4', 'summary']);
  const link = new URL(meta('og:image') as string);
  expect(`${link.pathname}${link.search}`).toMatch(new RegExp(`^/raw/${file?.name}\\?embed=[\\w-]{22}$`));
  const redirect = await call('GET', `${link.pathname}${link.search}`);
  expect(redirect.status).toBe(302);
  const poster = Buffer.from(await (await fetch(redirect.headers.location as string)).arrayBuffer());
  expect((await sharp(poster).metadata()).width).toBe(320);
  expect((await fileOf(user, file?.id as string)).views).toBe(1);
}, 120_000);

test('a video ffmpeg cannot read gets no thumbnail, in one attempt, and its upload stands', async () => {
  const user = await signedInUser();
  const corrupt = Buffer.concat([Buffer.from('\x00\x00\x00\x18ftypmp42'), Buffer.alloc(4096, 0x5a)]);
  const truncated = mp4().subarray(0, 600);
  const files = await uploadAndSettle(user, [
    { fileName: 'corrupt.mp4', type: 'video/mp4', content: corrupt },
    { fileName: 'truncated.webm', type: 'video/webm', content: truncated },
  ]);
  for (const file of files) {
    expect((await fileOf(user, file.id)).thumbnail).toBeNull();
    const lines = feedLog.filter((line) => line.includes(file.id));
    // One invocation, answered (a `failed` outcome is no error): nothing for Lambda to retry.
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('"failed":"ffmpeg read no frame');
    // ffmpeg's message names no presigned URL (it carries a signature).
    expect(lines[0]).not.toContain('X-Amz-');
  }
  expect((await download(files[0]?.url as string)).bytes?.equals(corrupt)).toBe(true);
}, 120_000);
