import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { ByteSource } from './bytes.ts';
import type { Report } from './report.ts';
import type { Snapshot } from './source.ts';
import type { Target } from './target.ts';

/**
 * After a run, every link the target now holds, checked from outside as a visitor would:
 * - `links`: `HEAD /raw/<name>` answers with the file's size (or a redirect to storage that does);
 *   HEAD counts no view, so this check changes nothing.
 * - `bytes`: also `GET /raw/<name>` byte for byte against the source (SHA-256 of both streams) and
 *   `GET /go/<code>` redirecting to the destination: each counts one view on the target, as a
 *   visitor's would (meant for a trial import, docs/migrate-from-zipline.md).
 * Protected files and links are skipped (they are imported locked, nobody knows the password).
 */
export type VerifyMode = 'links' | 'bytes';

async function sha256(stream: Readable | ReadableStream<Uint8Array>): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of stream as AsyncIterable<Uint8Array>) hash.update(chunk);
  return hash.digest('hex');
}

async function sizeAt(target: Target, path: string): Promise<number | string> {
  const response = await target.page(path, 'HEAD');
  const location = response.headers.get('location');
  if (response.status >= 300 && response.status < 400 && location) {
    const stored = await fetch(new URL(location, target.base), { method: 'HEAD' });
    return stored.ok ? Number(stored.headers.get('content-length')) : `storage answered ${stored.status}`;
  }
  return response.ok ? Number(response.headers.get('content-length')) : `${path} answered ${response.status}`;
}

/** `landed`: the Zipline ids the target holds after the run (imported now or before). */
export async function verifyLinks(
  snapshot: Snapshot,
  landed: Set<string>,
  target: Target,
  bytes: ByteSource,
  mode: VerifyMode,
) {
  const problems: string[] = [];
  let checked = 0;
  for (const file of snapshot.files) {
    if (file.password || !landed.has(file.id)) continue;
    const path = `/raw/${encodeURIComponent(file.name)}`;
    const size = await sizeAt(target, path);
    checked++;
    if (size !== file.size) {
      problems.push(`${path}: ${typeof size === 'string' ? size : `${size} bytes, not ${file.size}`}`);
      continue;
    }
    if (mode !== 'bytes') continue;
    const source = await bytes(file);
    if ('missing' in source) {
      problems.push(`${path}: source bytes unavailable (${source.missing})`);
      continue;
    }
    const served = await fetch(target.base + path);
    if (!served.ok || !served.body) problems.push(`${path}: GET answered ${served.status}`);
    else if ((await sha256(served.body)) !== (await sha256(source.stream)))
      problems.push(`${path}: bytes differ`);
  }
  if (mode === 'bytes') {
    for (const url of snapshot.urls) {
      if (
        !landed.has(url.id) ||
        url.password ||
        !url.enabled ||
        (url.maxViews !== null && url.views >= url.maxViews)
      )
        continue;
      const path = `/go/${encodeURIComponent(url.vanity ?? url.code)}`;
      const response = await target.page(path, 'GET');
      checked++;
      if (response.headers.get('location') !== url.destination)
        problems.push(`${path}: answered ${response.status} ${response.headers.get('location') ?? ''}`);
    }
  }
  return { checked, problems };
}

export function reportVerification(report: Report, result: { checked: number; problems: string[] }) {
  report.notes.push(
    `verified ${result.checked} link(s): ${result.problems.length} problem(s)`,
    ...result.problems,
  );
}
