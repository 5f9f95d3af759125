import { crc32, createDeflate } from 'node:zlib';

/** Smallest valid images of each accepted format, for avatar tests. */
export const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
export const GIF_1X1 = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
export const JPEG_HEADER = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(60, 1)]);
export const WEBP_HEADER = Buffer.concat([
  Buffer.from('RIFF'),
  Buffer.from([0x24, 0, 0, 0]),
  Buffer.from('WEBPVP8 '),
  Buffer.alloc(40, 2),
]);

/** Adam7's passes: first column, first row, column step, row step. */
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;

/**
 * A decompression bomb: a PNG of `width`×`height` black RGB pixels, whose rows of zeros deflate about
 * a thousandfold (10,000×10,000: 300 MB of pixels in a 292 KB file). Built row by row, streamed
 * through zlib, so making it never holds the pixels.
 */
export async function pngBomb(
  width: number,
  height: number,
  {
    interlaced = false,
    channels = 3,
    depth = 8,
  }: { interlaced?: boolean; channels?: 3 | 4; depth?: 8 | 16 } = {},
): Promise<Buffer> {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  // Bits per channel, RGB or RGBA, deflate, the one filter method, Adam7 interlacing or none.
  header.set([depth, channels === 3 ? 2 : 6, 0, 0, interlaced ? 1 : 0], 8);
  const deflate = createDeflate({ level: 9 });
  const compressed: Buffer[] = [];
  deflate.on('data', (data: Buffer) => compressed.push(data));
  const done = new Promise((resolve, reject) => deflate.on('end', resolve).on('error', reject));
  // Each row of each pass: filter type 0, then the row's bytes (Adam7: seven passes over a sparser grid).
  const passes = interlaced ? ADAM7 : [[0, 0, 1, 1] as const];
  for (const [x0, y0, dx, dy] of passes) {
    const [passWidth, passHeight] = [Math.ceil((width - x0) / dx), Math.ceil((height - y0) / dy)];
    if (passWidth <= 0 || passHeight <= 0) continue;
    const row = Buffer.alloc(1 + (channels * depth * passWidth) / 8);
    for (let y = 0; y < passHeight; y++) {
      if (!deflate.write(row)) await new Promise((resolve) => deflate.once('drain', resolve));
    }
  }
  deflate.end();
  await done;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', Buffer.concat(compressed)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
