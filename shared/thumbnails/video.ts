import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import {
  THUMBNAIL_VIDEO_FRAME_PIXELS,
  THUMBNAIL_VIDEO_SECONDS,
  THUMBNAIL_VIDEO_TIME_LIMIT_MS,
} from '#shared/thumbnails/limits';

/**
 * ffmpeg's demuxer for each video type thumbnailed, forced (never probed): a probed "video" could be
 * an HLS playlist or an AVI carrying one, which makes ffmpeg fetch the URLs it names. The MP4
 * family's and Matroska's demuxers follow no external references (the MP4 one's `enable_drefs` is
 * off by default).
 */
const DEMUXERS: Readonly<Record<string, string>> = {
  'video/mp4': 'mov',
  'video/quicktime': 'mov',
  'video/x-m4v': 'mov',
  'video/webm': 'matroska',
  'video/x-matroska': 'matroska',
};

/** The demuxer for a file of this (recorded) type, or undefined when its videos get no thumbnail. */
export const videoDemuxerOf = (type: string): string | undefined =>
  DEMUXERS[type.split(';')[0]?.trim().toLowerCase() ?? ''];

/**
 * The ffmpeg binary of this machine's platform: `@ffmpeg-installer/<platform>-<arch>` carries it in
 * its npm tarball. Resolved from this module, so in Lambda from the bundle's own node_modules (the
 * linux-arm64 package, copied there by ServiceFunction), locally from the root install.
 */
export function ffmpegBinary(): string {
  const name = `@ffmpeg-installer/${process.platform}-${process.arch}`;
  const manifest = createRequire(import.meta.url).resolve(`${name}/package.json`);
  return join(dirname(manifest), 'ffmpeg');
}

/** A frame fit inside the box is at most this many bytes of PNG (RGB, uncompressed bound). */
const FRAME_MAX_BYTES = THUMBNAIL_VIDEO_FRAME_PIXELS ** 2 * 3 + 64 * 1024;

/**
 * The most representative frame of the video's first second (ffmpeg's `thumbnail` filter, so not a
 * black first frame of a fade-in), fit inside `THUMBNAIL_VIDEO_FRAME_PIXELS` without enlarging, as
 * PNG bytes for sharp. ffmpeg reads `url` (a presigned GET: range requests, so only the container's
 * index and the first second travel, whatever the file's size), over HTTP(S) only, and is killed
 * past `THUMBNAIL_VIDEO_TIME_LIMIT_MS`. Rejects with ffmpeg's own message (the URL, which carries a
 * signature, replaced) when it reads no frame.
 */
export function firstFrame(url: string, demuxer: string): Promise<Buffer> {
  const box = THUMBNAIL_VIDEO_FRAME_PIXELS;
  const args = [
    ...['-hide_banner', '-loglevel', 'error', '-nostdin'],
    ...['-protocol_whitelist', 'http,https,tcp,tls', '-f', demuxer, '-t', String(THUMBNAIL_VIDEO_SECONDS)],
    ...['-i', url, '-map', '0:v:0', '-an', '-sn', '-dn'],
    // Scaled before the filter holds its frames, so a 4K video's second holds 640 px frames.
    ...['-vf', `scale='min(iw,${box})':'min(ih,${box})':force_original_aspect_ratio=decrease,thumbnail`],
    ...['-frames:v', '1', '-f', 'image2pipe', '-c:v', 'png', 'pipe:1'],
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(ffmpegBinary(), args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: THUMBNAIL_VIDEO_TIME_LIMIT_MS,
      killSignal: 'SIGKILL',
    });
    const chunks: Buffer[] = [];
    let bytes = 0;
    let errors = '';
    child.stdout.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > FRAME_MAX_BYTES) child.kill('SIGKILL');
      else chunks.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      errors = (errors + chunk.toString()).slice(-2048);
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      const frame = Buffer.concat(chunks);
      if (code === 0 && frame.length > 0 && bytes <= FRAME_MAX_BYTES) return resolve(frame);
      const reason = signal
        ? `ffmpeg stopped (${signal}): over ${THUMBNAIL_VIDEO_TIME_LIMIT_MS} ms or ${FRAME_MAX_BYTES} bytes`
        : `ffmpeg read no frame: ${errors.replaceAll(url, '<video>').trim() || `exit ${code}`}`;
      reject(new Error(reason));
    });
  });
}
