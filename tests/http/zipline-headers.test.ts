import { ZIPLINE_HEADER_NAMES, ZIPLINE_HEADERS } from '#shared/http/zipline-headers';
import { call } from '../support/client.ts';
import { download, upload, uploadRequest } from '../support/files.ts';
import { PNG_1X1 } from '../support/pixels.ts';
import { signedInUser } from '../support/users.ts';

const txt = [{ fileName: 'notes.txt', type: 'text/plain', content: 'hello' }];
const png = [{ fileName: 'pixel.png', type: 'image/png', content: PNG_1X1 }];

async function fileCount(token: string): Promise<number> {
  return (await call('GET', '/api/user/files', { token })).body.total;
}

/** Every header Zipline 4.4 defines: its `parseHeaders`, its chunked uploads, its sign-in's client name. */
const ZIPLINE_4_4 = [
  'x-zipline-deletes-at',
  'x-zipline-format',
  'x-zipline-image-compression-percent',
  'x-zipline-image-compression-type',
  'x-zipline-password',
  'x-zipline-max-views',
  'x-zipline-no-json',
  'x-zipline-original-name',
  'x-zipline-folder',
  'x-zipline-filename',
  'x-zipline-domain',
  'x-zipline-file-extension',
  'x-zipline-extensionless',
  'content-range',
  'x-zipline-p-filename',
  'x-zipline-p-content-type',
  'x-zipline-p-identifier',
  'x-zipline-p-lastchunk',
  'x-zipline-p-content-length',
  'x-zipline-client',
];

describe('one table of the Zipline headers', () => {
  test('it holds every header Zipline 4.4 defines, each honoured, accepted or refused', () => {
    expect([...ZIPLINE_HEADER_NAMES].sort()).toEqual([...ZIPLINE_4_4].sort());
    for (const header of ZIPLINE_HEADERS) {
      expect(['honoured', 'accepted', 'refused']).toContain(header.support);
      expect(header.message).not.toBe('');
    }
  });

  test('the preflight allows exactly the table’s headers, authorization and content-type', async () => {
    const response = await call('OPTIONS', '/api/upload', {
      headers: {
        origin: 'https://uploader.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers':
          'authorization, x-zipline-extensionless, x-zipline-image-compression-type',
      },
    });
    expect(response.status).toBe(204);
    const allowed = (response.headers['access-control-allow-headers'] as string)
      .split(',')
      .map((h) => h.trim());
    expect([...allowed].sort()).toEqual(['authorization', 'content-type', ...ZIPLINE_HEADER_NAMES].sort());
    // The two the allow-list lacked before the table fed it.
    expect(allowed).toEqual(
      expect.arrayContaining(['x-zipline-extensionless', 'x-zipline-image-compression-type']),
    );
  });

  test('no header is refused any more: x-zipline-folder, the last, names a folder (tests/http/folders.test.ts)', () => {
    expect(ZIPLINE_HEADERS.filter((header) => header.support === 'refused')).toEqual([]);
  });
});

describe('Zipline 4.4 upload header rules', () => {
  test('an x-zipline-* header Zipline does not define is ignored, as Zipline ignores it', async () => {
    const owner = await signedInUser();
    const [file] = await upload(owner.token, txt, {
      'x-zipline-embed': 'true',
      'x-zipline-custom-format': '{random}',
      'x-zipline-p-something-new': '1',
      'x-zipline-client': 'ZiplineMobile',
    });
    expect((await download(file?.url as string)).bytes?.toString()).toBe('hello');
    expect(await fileCount(owner.token)).toBe(1);
    // On a sign-in too: the client name is accepted (sessions carry none).
    const login = await call('POST', '/api/auth/login', {
      json: { username: owner.username, password: owner.password },
      headers: { 'x-zipline-client': 'ZiplineMobile' },
    });
    expect(login.status).toBe(200);
  });

  test('image compression headers are honoured (tests/http/upload-compression.test.ts), other files stored as sent', async () => {
    const owner = await signedInUser();
    const [image] = await upload(owner.token, png, {
      'x-zipline-image-compression-percent': '50',
      'x-zipline-image-compression-type': 'webp',
    });
    expect(image).toMatchObject({ type: 'image/webp', compressed: true });
    // A text file with them, as the mobile client sends them by default: stored as sent.
    const [text] = await upload(owner.token, txt, {
      'x-zipline-image-compression-percent': '100',
      'x-zipline-image-compression-type': 'JPG',
    });
    expect((await download(text?.url as string)).bytes?.toString()).toBe('hello');
  });

  test('an unreadable compression value is a 400 naming its header, storing nothing', async () => {
    const owner = await signedInUser();
    for (const [headers, error] of [
      [{ 'x-zipline-image-compression-percent': '101' }, 'x-zipline-image-compression-percent must be'],
      [{ 'x-zipline-image-compression-percent': 'half' }, 'x-zipline-image-compression-percent must be'],
      [{ 'x-zipline-image-compression-type': 'bmp' }, 'x-zipline-image-compression-type must be one of'],
    ] as const) {
      const response = await uploadRequest(owner.token, png, headers);
      expect(response.status).toBe(400);
      expect(response.body.error).toContain(error);
    }
    expect(await fileCount(owner.token)).toBe(0);
  });

  test('x-zipline-deletes-at: never answers deletesAt "never" and sets no expiry', async () => {
    const owner = await signedInUser();
    const response = await uploadRequest(owner.token, txt, { 'x-zipline-deletes-at': 'never' });
    expect(response.status).toBe(200);
    expect(response.body.deletesAt).toBe('never');
    const id = response.body.files[0].id as string;
    const stored = await call('GET', `/api/user/files/${id}`, { token: owner.token });
    expect(stored.body.deletesAt).toBeNull();
    // Without the header, no deletesAt in the answer, as before.
    expect((await uploadRequest(owner.token, txt)).body).not.toHaveProperty('deletesAt');
  });

  test('x-zipline-no-json joins several URLs with commas', async () => {
    const owner = await signedInUser();
    const response = await uploadRequest(owner.token, [...txt, { ...txt[0], fileName: 'b.txt' } as never], {
      'x-zipline-no-json': 'true',
    });
    expect(response.status).toBe(200);
    expect(response.text).not.toContain('\n');
    const urls = response.text.split(',');
    expect(urls).toHaveLength(2);
    for (const url of urls) expect(url).toMatch(/^https:\/\/localhost\/u\/[0-9a-z]+\.txt$/);
  });
});
