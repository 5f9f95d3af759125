import sharp from 'sharp';
import { sendChunk } from '../support/chunks.ts';
import { call } from '../support/client.ts';
import { download, upload, uploadRequest } from '../support/files.ts';
import { signedInUser } from '../support/users.ts';

/**
 * The server settings' upload policies and defaults through every upload path (issue 38,
 * docs/settings.md). The change is made by `PATCH /api/server/settings`; the upload functions
 * apply it at once here (one process) and within 10 s in AWS (server-settings.test.ts).
 */

type Owner = Awaited<ReturnType<typeof signedInUser>>;
let root: Owner;
let owner: Owner;
beforeAll(async () => {
  root = await signedInUser('SUPERADMIN');
  owner = await signedInUser();
});

async function setting(json: Record<string, unknown>) {
  const response = await call('PATCH', '/api/server/settings', { cookie: root.cookie, json });
  expect(response.status).toBe(200);
}

const presignedStart = (originalName: string, size: number, type = 'application/octet-stream') =>
  call('POST', '/api/user/files/uploads', { token: owner.token, json: { originalName, size, type } });

describe('filesMaxFileSize', () => {
  afterAll(() => setting({ filesMaxFileSize: null }));

  test('a file over the limit is a 413 on every path; one within it is stored', async () => {
    await setting({ filesMaxFileSize: '1kb' });
    const over = await uploadRequest(owner.token, [{ fileName: 'big.txt', content: 'x'.repeat(1025) }]);
    expect(over.status).toBe(413);
    expect(over.body.error).toContain('at most 1kb (1024 bytes)');
    expect(await upload(owner.token, [{ fileName: 'small.txt', content: 'x'.repeat(1024) }])).toHaveLength(1);
    const chunk = await sendChunk(owner, { start: 0, bytes: Buffer.alloc(70_000), total: 140_000 });
    expect(chunk.status).toBe(413);
    expect((await presignedStart('big.bin', 2048)).status).toBe(413);
    expect((await presignedStart('small.bin', 512)).status).toBe(200);
    const files = await call('GET', '/api/user/files', { token: owner.token });
    expect(files.body.page.map((file: { originalName: string }) => file.originalName)).toEqual(['small.txt']);
  });

  test('back to no limit (null), the same file is stored', async () => {
    await setting({ filesMaxFileSize: null });
    expect(await upload(owner.token, [{ fileName: 'big.txt', content: 'x'.repeat(1025) }])).toHaveLength(1);
  });
});

describe('filesDisabledExtensions and filesDisabledTypes', () => {
  afterAll(() => setting({ filesDisabledExtensions: null, filesDisabledTypes: null }));

  test('a blocked extension is a 400 naming it, by its name or by x-zipline-file-extension', async () => {
    await setting({ filesDisabledExtensions: ['exe', '.BAT'] });
    const named = await uploadRequest(owner.token, [{ fileName: 'setup.EXE', content: 'MZ' }]);
    expect(named.status).toBe(400);
    expect(named.body.error).toBe('files with the extension .exe are not allowed on this server');
    const renamed = await uploadRequest(owner.token, [{ fileName: 'notes.txt', content: 'x' }], {
      'x-zipline-file-extension': 'bat',
    });
    expect(renamed.status).toBe(400);
    expect((await presignedStart('run.bat', 10)).status).toBe(400);
    expect(await upload(owner.token, [{ fileName: 'notes.txt', content: 'x' }])).toHaveLength(1);
  });

  test('a blocked type, or family, is a 400 on every path', async () => {
    await setting({ filesDisabledTypes: ['video/*', 'application/x-msdownload'] });
    const video = await uploadRequest(owner.token, [
      { fileName: 'clip.webm', type: 'video/webm', content: 'x' },
    ]);
    expect(video.status).toBe(400);
    expect(video.body.error).toBe('files of type video/webm are not allowed on this server');
    const chunk = await sendChunk(owner, { start: 0, bytes: Buffer.alloc(70_000), total: 140_000 });
    expect(chunk.status).toBe(400);
    expect((await presignedStart('clip.mp4', 10, 'video/mp4')).status).toBe(400);
    expect(await upload(owner.token, [{ fileName: 'a.png.txt', content: 'x' }])).toHaveLength(1);
  });
});

describe('filesDefaultFormat and filesDefaultExpiration', () => {
  afterAll(() => setting({ filesDefaultFormat: null, filesDefaultExpiration: null }));

  test('an upload that does not say gets them; one that says keeps its own', async () => {
    await setting({ filesDefaultFormat: 'uuid', filesDefaultExpiration: '1d' });
    const before = Date.now();
    const [file] = await upload(owner.token, [{ fileName: 'a.txt', content: 'x' }]);
    expect(file?.name).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.txt$/);
    const stored = await call('GET', `/api/user/files/${file?.id}`, { token: owner.token });
    const lifetime = Date.parse(stored.body.deletesAt) - before;
    expect(lifetime).toBeGreaterThan(86_000_000);
    expect(lifetime).toBeLessThanOrEqual(86_400_000 + 60_000);
    const [own] = await upload(owner.token, [{ fileName: 'b.txt', content: 'x' }], {
      'x-zipline-format': 'name',
      'x-zipline-deletes-at': 'never',
    });
    expect(own?.name).toBe('b.txt');
    expect(
      (await call('GET', `/api/user/files/${own?.id}`, { token: owner.token })).body.deletesAt,
    ).toBeNull();
  });
});

describe('filesRemoveGpsMetadata', () => {
  afterAll(() => setting({ filesRemoveGpsMetadata: null }));

  /** A JPEG whose EXIF holds a location (the GPS IFD, tag 0x8825), made here with sharp. */
  const located = () =>
    sharp({ create: { width: 64, height: 48, channels: 3, background: '#3080c0' } })
      .jpeg()
      .withExif({ IFD0: { Copyright: 'test' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1' } })
      .toBuffer();
  const GPS_POINTER = Buffer.from([0x25, 0x88]);

  async function stored(bytes: Buffer) {
    const [file] = await upload(owner.token, [{ fileName: 'photo.jpg', type: 'image/jpeg', content: bytes }]);
    return (await download(file?.url as string)).bytes as Buffer;
  }

  test('off (the default), the photo is stored as sent, its location included', async () => {
    const photo = await located();
    expect((await sharp(photo).metadata()).exif?.includes(GPS_POINTER)).toBe(true);
    expect((await stored(photo)).equals(photo)).toBe(true);
  });

  test('on, the stored photo has no EXIF left, and the same pixels size', async () => {
    await setting({ filesRemoveGpsMetadata: true });
    const kept = await stored(await located());
    const metadata = await sharp(kept).metadata();
    expect(metadata.exif).toBeUndefined();
    expect(metadata).toMatchObject({ format: 'jpeg', width: 64, height: 48 });
  });
});
