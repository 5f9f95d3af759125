import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { IMAGE_MAX_INPUT_PIXELS } from '#shared/files/images';
import { compressImage } from '#shared/files/upload/compression';
import { COMPRESSED_TYPES, type CompressedType } from '#shared/files/upload/compression-types';
import { pngBomb } from '../tests/support/pixels.ts';
import { cpuMs, peakRssMb } from './processes.ts';

/**
 * What compressing the largest image under the pixel limit costs the upload function (issue 33):
 * `npx tsx bench/compression-memory.ts`. Each case in a fresh process: a small image compressed
 * first (sharp and libvips loaded: the baseline), then the case; the kernel's high-water mark of
 * resident memory before and after, and the CPU time the compression took (Lambda's share of a
 * core at 1,024 MB is 1024/1769, so its time is about this CPU time / 0.58).
 */
const WIDTH = 8160;
const HEIGHT = Math.floor(IMAGE_MAX_INPUT_PIXELS / WIDTH);

const CASES: { label: string; make: () => Promise<Buffer>; type: string }[] = [
  {
    // The format's worst for memory: 16 bits RGBA, interlaced, so libvips holds it whole.
    label: `PNG ${WIDTH}×${HEIGHT}, 16-bit RGBA, interlaced`,
    type: 'image/png',
    make: () => pngBomb(WIDTH, HEIGHT, { interlaced: true, channels: 4, depth: 16 }),
  },
  {
    // A photo-like image as large as the limit that still fits one upload request (4 MiB).
    label: `JPEG ${WIDTH}×${HEIGHT}, a gradient`,
    type: 'image/jpeg',
    make: () =>
      sharp({ create: { width: WIDTH, height: HEIGHT, channels: 3, background: '#336699' } })
        .composite([
          {
            input: Buffer.from(
              `<svg width="${WIDTH}" height="${HEIGHT}"><defs><linearGradient id="g"><stop offset="0" stop-color="#fff"/><stop offset="1" stop-color="#c40"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/></svg>`,
            ),
          },
        ])
        .jpeg({ quality: 90 })
        .toBuffer(),
  },
];

const [, , caseFile, caseType, target] = process.argv;
if (caseFile && caseType && target) {
  const pid = process.pid;
  const warm = await sharp({ create: { width: 64, height: 64, channels: 3, background: 'red' } })
    .png()
    .toBuffer();
  await compressImage(
    { originalName: 'warm.png', type: 'image/png', bytes: warm },
    { quality: 80, type: 'jpg' },
  );
  const bytes = readFileSync(caseFile);
  const before = { peak: peakRssMb(pid), cpu: cpuMs(pid) };
  const started = performance.now();
  const outcome = await compressImage(
    { originalName: 'case', type: caseType, bytes },
    { quality: 80, type: target as CompressedType },
  );
  console.log(
    JSON.stringify({
      inputBytes: bytes.length,
      outputBytes: outcome.file.bytes.length,
      compressed: outcome.compressed,
      baselineMb: Math.round(before.peak),
      peakMb: Math.round(peakRssMb(pid)),
      cpuS: Number(((cpuMs(pid) - before.cpu) / 1000).toFixed(1)),
      wallS: Number(((performance.now() - started) / 1000).toFixed(1)),
    }),
  );
} else {
  const directory = mkdtempSync(join(tmpdir(), 'compression-'));
  try {
    for (const { label, make, type } of CASES) {
      const file = join(directory, 'image');
      writeFileSync(file, await make());
      for (const target of Object.keys(COMPRESSED_TYPES)) {
        const line = execFileSync('npx', ['tsx', 'bench/compression-memory.ts', file, type, target], {
          encoding: 'utf8',
        });
        console.log(`${label} → ${target}: ${line.trim()}`);
      }
    }
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}
