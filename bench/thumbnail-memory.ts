import { readFileSync } from 'node:fs';
import { IMAGE_MAX_INPUT_PIXELS } from '#shared/files/images';
import { multipart } from '../tests/support/multipart.ts';
import { pngBomb } from '../tests/support/pixels.ts';
import { adminToken, startAsUsersDo } from './npm-start.ts';
import { peakRssMb } from './processes.ts';

/**
 * The runner's memory while it makes thumbnails in its own process (issue 29.7):
 * `npx tsx bench/thumbnail-memory.ts`. For each case a fresh `npm start`: one small image first
 * (sharp loaded, the baseline), then two uploads of the case at once, then a small image whose
 * thumbnail, queued behind theirs, says they are done. RSS before and after, and the peak (the
 * kernel's high-water mark) over the two.
 */
const CASES = [
  {
    label: "the issue's bomb (10,000×10,000 PNG, Adam7-interlaced)",
    make: () => pngBomb(10_000, 10_000, { interlaced: true }),
  },
  {
    // The largest image the limit lets through at the format's worst: 16 bits RGBA, held whole.
    label: `just under the limit (${8160}×${Math.floor(IMAGE_MAX_INPUT_PIXELS / 8160)}, 16-bit RGBA, interlaced)`,
    make: () =>
      pngBomb(8160, Math.floor(IMAGE_MAX_INPUT_PIXELS / 8160), {
        interlaced: true,
        channels: 4,
        depth: 16,
      }),
  },
];

const rssMb = (pid: number) =>
  (Number(/^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) * 1024) / 1e6;

async function uploadImage(url: string, token: string, content: Buffer, fileName: string) {
  const { body, contentType } = multipart([{ fileName, type: 'image/png', content }]);
  const answer = await fetch(`${url}/api/upload`, {
    method: 'POST',
    headers: { authorization: token, 'content-type': contentType },
    body,
  });
  if (answer.status !== 200) throw new Error(`upload answered ${answer.status}`);
  return ((await answer.json()) as { files: { id: string }[] }).files[0]?.id as string;
}

/** Waits until the file has its thumbnail (polls the File resource). */
async function thumbnailMade(url: string, token: string, id: string) {
  for (;;) {
    const file = (await (
      await fetch(`${url}/api/user/files/${id}`, { headers: { authorization: token } })
    ).json()) as {
      thumbnail: { path: string } | null;
    };
    if (file.thumbnail) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const small = await pngBomb(64, 64);
for (const { label, make } of CASES) {
  const image = await make();
  const service = await startAsUsersDo();
  try {
    const token = await adminToken(service.url);
    await thumbnailMade(service.url, token, await uploadImage(service.url, token, small, 'warm.png'));
    const before = { rss: rssMb(service.runnerPid), peak: peakRssMb(service.runnerPid) };
    const started = performance.now();
    const ids = await Promise.all(
      ['a.png', 'b.png'].map((name) => uploadImage(service.url, token, image, name)),
    );
    await thumbnailMade(service.url, token, await uploadImage(service.url, token, small, 'after.png'));
    const seconds = (performance.now() - started) / 1000;
    const made = await Promise.all(
      ids.map(async (id) => {
        const answer = await fetch(`${service.url}/api/user/files/${id}`, {
          headers: { authorization: token },
        });
        return ((await answer.json()) as { thumbnail: string | null }).thumbnail !== null;
      }),
    );
    console.log(
      `${label}, ${image.length.toLocaleString('en')} bytes, two at once: RSS ${before.rss.toFixed(0)} MB before (peak so far ${before.peak.toFixed(0)}), ` +
        `${rssMb(service.runnerPid).toFixed(0)} MB after, peak ${peakRssMb(service.runnerPid).toFixed(0)} MB; ` +
        `thumbnails made: ${made.join(', ')}; ${seconds.toFixed(1)} s until the next image's thumbnail`,
    );
  } finally {
    await service.stop();
  }
}
