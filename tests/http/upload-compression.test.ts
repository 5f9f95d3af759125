import sharp from 'sharp';
import { IMAGE_MAX_INPUT_PIXELS } from '#shared/files/images';
import { counters, identifier, keysUnder, sendChunk } from '../support/chunks.ts';
import { call } from '../support/client.ts';
import { download, upload, uploadRequest } from '../support/files.ts';
import { pngBomb } from '../support/pixels.ts';
import { signedInUser } from '../support/users.ts';

type Owner = Awaited<ReturnType<typeof signedInUser>>;

/** A photo-like PNG with a transparent corner: a gradient, so that quality changes the size. */
async function photo(width = 400, height = 300): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = (y * width + x) * 4;
      pixels.set([(x * 255) / width, (y * 255) / height, (x * y) % 256, x < 20 && y < 20 ? 0 : 255], at);
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 4 } })
    .png()
    .toBuffer();
}

const compress = (percent: string, type?: string) => ({
  'x-zipline-image-compression-percent': percent,
  ...(type ? { 'x-zipline-image-compression-type': type } : {}),
});

const bytesOf = async (url: string) => (await download(url)).bytes as Buffer;
const fileOf = async (owner: Owner, id: string) =>
  (await call('GET', `/api/user/files/${id}`, { token: owner.token })).body;

let original: Buffer;
beforeAll(async () => {
  original = await photo();
});

describe('POST /api/upload re-encodes images as Zipline does', () => {
  test.each([
    ['jpg', 'image/jpeg', 'jpeg'],
    ['JPEG', 'image/jpeg', 'jpeg'],
    ['webp', 'image/webp', 'webp'],
    ['png', 'image/png', 'png'],
  ])(
    'to %s at a percent: its type, name and size change, it decodes, compressed: true',
    async (type, mime, format) => {
      const owner = await signedInUser();
      const response = await uploadRequest(
        owner.token,
        [{ fileName: 'holiday.png', type: 'image/png', content: original }],
        { ...compress('40', type), 'x-zipline-original-name': 'true' },
      );
      expect(response.status).toBe(200);
      const [entry] = response.body.files;
      const extension = format === 'jpeg' ? 'jpg' : format;
      expect(entry).toMatchObject({
        type: mime,
        compressed: true,
        name: expect.stringMatching(`\\.${extension}$`),
      });
      const stored = await bytesOf(entry.url);
      expect(stored.equals(original)).toBe(false);
      expect(stored.length).toBeLessThan(original.length);
      const decoded = await sharp(stored).metadata();
      expect([decoded.format, decoded.width, decoded.height]).toEqual([format, 400, 300]);
      // The record says what is stored: its type, its size, and the download name's extension.
      const file = await fileOf(owner, entry.id);
      expect(file).toMatchObject({ type: mime, size: stored.length, originalName: `holiday.${extension}` });
      expect((await counters(owner.id))?.bytes).toBe(stored.length);
    },
  );

  test('the percent is the quality: a lower one stores fewer bytes; JPEG puts transparency on white', async () => {
    const owner = await signedInUser();
    const [low, high] = await Promise.all(
      ['10', '95'].map(async (percent) => {
        const [file] = await upload(
          owner.token,
          [{ fileName: 'a.png', type: 'image/png', content: original }],
          compress(percent, 'jpg'),
        );
        return bytesOf(file?.url as string);
      }),
    );
    expect((low as Buffer).length).toBeLessThan((high as Buffer).length);
    const { data } = await sharp(high).raw().toBuffer({ resolveWithObject: true });
    // The top-left pixel was transparent.
    expect([...data.subarray(0, 3)].every((channel) => channel > 240)).toBe(true);
  });

  test('a percent alone re-encodes to jpg, as Zipline; 0 is the lowest quality', async () => {
    const owner = await signedInUser();
    for (const percent of ['75', '0']) {
      const [file] = await upload(
        owner.token,
        [{ fileName: 'shot', type: 'image/png', content: original }],
        compress(percent),
      );
      expect(file).toMatchObject({
        type: 'image/jpeg',
        compressed: true,
        name: expect.stringMatching(/\.jpg$/),
      });
      expect((await sharp(await bytesOf(file?.url as string)).metadata()).format).toBe('jpeg');
    }
  });

  test('a type without a percent changes nothing, as in Zipline: stored as sent, no compressed', async () => {
    const owner = await signedInUser();
    const [file] = await upload(owner.token, [{ fileName: 'a.png', type: 'image/png', content: original }], {
      'x-zipline-image-compression-type': 'webp',
    });
    expect(file).toMatchObject({ type: 'image/png', name: expect.stringMatching(/\.png$/) });
    expect(file).not.toHaveProperty('compressed');
    expect((await bytesOf(file?.url as string)).equals(original)).toBe(true);
  });

  test('non-images (text, SVG) and undecodable images in the same upload are stored byte-identical, without compressed', async () => {
    const owner = await signedInUser();
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"><rect width="9" height="9"/></svg>';
    const broken = Buffer.from('not a PNG, whatever its type says');
    const response = await uploadRequest(
      owner.token,
      [
        { fileName: 'notes.txt', type: 'text/plain', content: 'hello, as sent' },
        { fileName: 'drawing.svg', type: 'image/svg+xml', content: svg },
        { fileName: 'broken.png', type: 'image/png', content: broken },
        { fileName: 'photo.png', type: 'image/png', content: original },
      ],
      compress('50', 'webp'),
    );
    expect(response.status).toBe(200);
    const files = response.body.files as { url: string; type: string; name: string; compressed?: true }[];
    expect(files.map((file) => [file.type, file.compressed])).toEqual([
      ['text/plain', undefined],
      ['image/svg+xml', undefined],
      ['image/png', undefined],
      ['image/webp', true],
    ]);
    expect(files.map((file) => file.name.split('.').pop())).toEqual(['txt', 'svg', 'png', 'webp']);
    expect((await bytesOf(files[0]?.url as string)).toString()).toBe('hello, as sent');
    expect((await bytesOf(files[1]?.url as string)).toString()).toBe(svg);
    expect((await bytesOf(files[2]?.url as string)).equals(broken)).toBe(true);
  });

  test('an animation stays one as WebP; as JPEG it is its first frame', async () => {
    const owner = await signedInUser();
    const frame = (background: string) =>
      sharp({ create: { width: 16, height: 16, channels: 3, background } })
        .png()
        .toBuffer();
    const gif = await sharp([await frame('red'), await frame('blue')], { join: { animated: true } })
      .gif({ loop: 0 })
      .toBuffer();
    const [webp, jpg] = await Promise.all(
      ['webp', 'jpg'].map(async (type) => {
        const [file] = await upload(
          owner.token,
          [{ fileName: 'blink.gif', type: 'image/gif', content: gif }],
          compress('80', type),
        );
        return sharp(await bytesOf(file?.url as string), { animated: true }).metadata();
      }),
    );
    expect([webp?.format, webp?.pages, webp?.pageHeight]).toEqual(['webp', 2, 16]);
    expect([jpg?.format, jpg?.height]).toEqual(['jpeg', 16]);
  });

  test('the name follows the new type: x-zipline-filename gets its extension, x-zipline-file-extension still wins', async () => {
    const owner = await signedInUser();
    const chosen = `cover-${identifier()}`;
    const [named] = await upload(owner.token, [{ fileName: 'a.png', type: 'image/png', content: original }], {
      ...compress('60', 'webp'),
      'x-zipline-filename': chosen,
    });
    expect(named?.name).toBe(`${chosen}.webp`);
    const [kept] = await upload(owner.token, [{ fileName: 'a.png', type: 'image/png', content: original }], {
      ...compress('60', 'webp'),
      'x-zipline-file-extension': 'img',
    });
    expect(kept).toMatchObject({
      type: 'image/webp',
      name: expect.stringMatching(/\.img$/),
      compressed: true,
    });
  });

  test('x-zipline-no-json: the URLs, the compressed image with its new extension', async () => {
    const owner = await signedInUser();
    const response = await uploadRequest(
      owner.token,
      [{ fileName: 'a.png', type: 'image/png', content: original }],
      {
        ...compress('60', 'jpg'),
        'x-zipline-no-json': 'true',
      },
    );
    expect(response.text).toMatch(/^https:\/\/localhost\/\S+\.jpg$/);
  });
});

describe('refused with a 400 naming the header or the limit, storing nothing', () => {
  test(`a decompression bomb: over ${IMAGE_MAX_INPUT_PIXELS.toLocaleString('en')} pixels, the limit named; the quota untouched`, async () => {
    const owner = await signedInUser();
    await upload(owner.token, [{ fileName: 'first.txt', type: 'text/plain', content: 'one file before' }]);
    const before = await counters(owner.id);
    // 292 KB that claim 10,000×10,000 pixels (Adam7-interlaced: libvips would hold them all), and
    // one just past the limit.
    const bomb = await pngBomb(10_000, 10_000, { interlaced: true });
    const justOver = await pngBomb(10_000, Math.floor(IMAGE_MAX_INPUT_PIXELS / 10_000) + 1);
    for (const [name, content, pixels] of [
      ['bomb.png', bomb, '100,000,000'],
      ['over.png', justOver, (10_000 * (IMAGE_MAX_INPUT_PIXELS / 10_000 + 1)).toLocaleString('en')],
    ] as const) {
      const response = await uploadRequest(
        owner.token,
        [
          { fileName: 'fine.txt', type: 'text/plain', content: 'would be stored beside it' },
          { fileName: name, type: 'image/png', content },
        ],
        compress('80', 'webp'),
      );
      expect(response.status).toBe(400);
      expect(response.body.error).toContain(`${name} is ${pixels} pixels`);
      expect(response.body.error).toContain('up to 50 megapixels (50,000,000 pixels)');
    }
    expect(await counters(owner.id)).toEqual(before);
    expect(await keysUnder(`files/${owner.id}/`)).toHaveLength(1);
    // Without compression the same file is stored as it is (its thumbnail is refused on its own).
    const [stored] = await upload(owner.token, [{ fileName: 'bomb.png', type: 'image/png', content: bomb }]);
    expect((await bytesOf(stored?.url as string)).equals(bomb)).toBe(true);
  });

  test('jxl, which this service cannot write, and unreadable values', async () => {
    const owner = await signedInUser();
    for (const [headers, error] of [
      [compress('50', 'jxl'), 'x-zipline-image-compression-type jxl is not supported'],
      [compress('101'), 'x-zipline-image-compression-percent must be an integer from 0 to 100'],
      [compress('-1'), 'x-zipline-image-compression-percent must be an integer from 0 to 100'],
      [compress('half'), 'x-zipline-image-compression-percent must be an integer from 0 to 100'],
      [compress('50', 'bmp'), 'x-zipline-image-compression-type must be one of jpg, jpeg, png, webp, jxl'],
    ] as const) {
      const response = await uploadRequest(
        owner.token,
        [{ fileName: 'a.png', type: 'image/png', content: original }],
        headers,
      );
      expect([response.status, response.body.error]).toEqual([400, expect.stringContaining(error)]);
    }
    expect(await counters(owner.id)).toBeUndefined();
  });
});

describe('uploads whose bytes never pass through a function whole: stored as sent', () => {
  test('a chunked upload with the headers: the assembled file byte-identical, no compressed', async () => {
    const owner = await signedInUser();
    const response = await sendChunk(owner, {
      identifier: identifier(),
      start: 0,
      bytes: original,
      total: original.length,
      last: true,
      headers: {
        ...compress('40', 'webp'),
        'x-zipline-p-filename': 'big.png',
        'x-zipline-p-content-type': 'image/png',
      },
    });
    expect(response.status).toBe(200);
    const [file] = response.body.files;
    expect(file).toMatchObject({ type: 'image/png', name: expect.stringMatching(/\.png$/) });
    expect(file).not.toHaveProperty('compressed');
    expect((await bytesOf(file.url)).equals(original)).toBe(true);
  });

  test('a presigned upload with the headers: stored as the client PUT it, no compressed', async () => {
    const owner = await signedInUser();
    const started = await call('POST', '/api/user/files/uploads', {
      token: owner.token,
      json: { originalName: 'big.png', size: original.length, type: 'image/png' },
      headers: compress('40', 'webp'),
    });
    expect(started.status).toBe(200);
    const put = await fetch(started.body.url, {
      method: 'PUT',
      body: original,
      headers: started.body.headers,
    });
    expect(put.status).toBe(200);
    const completed = await call('POST', `/api/user/files/uploads/${started.body.id}/complete`, {
      token: owner.token,
    });
    expect(completed.status).toBe(200);
    const [file] = completed.body.files;
    expect(file).toMatchObject({ type: 'image/png' });
    expect(file).not.toHaveProperty('compressed');
    expect((await bytesOf(file.url)).equals(original)).toBe(true);
  });
});
