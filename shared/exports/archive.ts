import { once } from 'node:events';
import type { PassThrough, Readable } from 'node:stream';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import type { ZipFile } from 'yazl';
import { type ManifestFile, manifestEntry } from '#shared/exports/manifest';
import type { FileRecord } from '#shared/files/model';
import { bucketName, s3 } from '#shared/s3/client';

/**
 * The zip of a user's files, made as it is uploaded: each file's bytes streamed from S3 into the
 * archive (yazl) and on into the multipart upload (parts.ts), then `manifest.json`. Files are
 * stored, not deflated: most are images, video and archives already compressed, and storing keeps
 * the run bound by S3, not by the CPU. yazl writes ZIP64 records wherever a size or offset passes
 * 4 GiB, so the archive has no size limit of its own. What the run holds does not grow with the
 * library: the files come a page at a time, the manifest goes to a temporary file, and each entry
 * lets go of its bytes once written (`releaseWritten`).
 */

/** Files up to this size are read whole, several at once, so S3's latency per GET overlaps. */
export const SMALL_FILE_BYTES = 1024 ** 2;
/** Small files read ahead of the one being written (at most 8 MiB in memory). */
export const READ_AHEAD = 8;

/** A public name as a zip entry under `files/`: no separators, never `.` or `..`. */
export function entryPath(name: string): string {
  const safe = name.replace(/[/\\]/g, '_');
  return `files/${safe === '.' || safe === '..' ? `_${safe}` : safe}`;
}

const isMissing = (error: unknown) => (error as { name?: string }).name === 'NoSuchKey';

type ObjectBytes = Buffer | { stream: Readable; size: number } | null;

/**
 * The object's bytes: whole for a small object, a stream and its size (S3's, which the entry's
 * header declares) otherwise; null when the object is gone (the file was deleted meanwhile).
 */
async function readObject(file: FileRecord): Promise<ObjectBytes> {
  try {
    const result = await s3.send(new GetObjectCommand({ Bucket: bucketName, Key: file.objectKey }));
    const body = result.Body as Readable & { transformToByteArray(): Promise<Uint8Array> };
    const size = result.ContentLength ?? 0;
    if (size > SMALL_FILE_BYTES) return { stream: body, size };
    const bytes = await body.transformToByteArray();
    // A view, not a copy.
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

/** Each file with its bytes on the way: the small ones among the next `READ_AHEAD` already read. */
async function* withReads(files: AsyncIterable<FileRecord>) {
  const queue: { file: FileRecord; read: Promise<ObjectBytes> | undefined }[] = [];
  const take = () => {
    const next = queue.shift() as (typeof queue)[number];
    return { file: next.file, bytes: next.read ?? readObject(next.file) };
  };
  for await (const file of files) {
    const read = file.size > SMALL_FILE_BYTES ? undefined : readObject(file);
    // Awaited when its turn comes; a failure meanwhile is not unhandled.
    read?.catch(() => undefined);
    queue.push({ file, read });
    if (queue.length > READ_AHEAD) yield take();
  }
  while (queue.length > 0) yield take();
}

interface YazlEntry {
  state: number;
  doFileDataPump: unknown;
}
/** yazl's `Entry.FILE_DATA_DONE`: the entry's bytes are in the output. */
const FILE_DATA_DONE = 3;

/**
 * yazl keeps every entry until the zip ends (for the central directory), and with it the function
 * that pumps the entry's data: for a buffer, the buffer itself. Over 5,000 small files that was
 * 160 MB held to the end (docs/exports.md). This drops the function of each entry written.
 */
function releaseWritten(zip: ZipFile) {
  const entries = (zip as unknown as { entries: YazlEntry[] }).entries;
  let next = 0;
  return () => {
    for (; next < entries.length && entries[next]?.state === FILE_DATA_DONE; next++) {
      (entries[next] as YazlEntry).doFileDataPump = undefined;
    }
  };
}

export interface ArchiveProgress {
  /** Files done (written, or found missing). */
  filesDone: number;
  /** Bytes of the files written (their recorded sizes). */
  bytesDone: number;
}

export interface ArchiveHooks {
  /** Called after each file. */
  progress(done: ArchiveProgress): Promise<void>;
  /** False stops the archive before the next file (out of time, or the export was deleted). */
  goOn(): boolean;
}

/** yazl's output is a PassThrough (its types say only a readable stream). */
export const outputOf = (zip: ZipFile) => zip.outputStream as unknown as PassThrough;

export class ArchiveStopped extends Error {
  constructor(readonly filesDone: number) {
    super('archive stopped');
  }
}

/**
 * Writes every file of `files` into `zip` in order, and its entry into `manifest`, then the manifest;
 * holds at most `READ_AHEAD` small files and the stream of one large file at a time. Answers how
 * many files were written and their bytes.
 */
export async function fillArchive(
  zip: ZipFile,
  files: AsyncIterable<FileRecord>,
  manifest: ManifestFile,
  hooks: ArchiveHooks,
): Promise<{ written: number; bytesDone: number }> {
  const output = outputOf(zip);
  const release = releaseWritten(zip);
  const done: ArchiveProgress = { filesDone: 0, bytesDone: 0 };
  let written = 0;
  for await (const { file, bytes: reading } of withReads(files)) {
    if (!hooks.goOn()) throw new ArchiveStopped(done.filesDone);
    const bytes = await reading;
    const path = bytes === null ? null : entryPath(file.name);
    const options = { compress: false, mtime: new Date(file.createdAt), mode: 0o100644 };
    if (Buffer.isBuffer(bytes)) {
      zip.addBuffer(bytes, path as string, options);
    } else if (bytes) {
      zip.addReadStream(bytes.stream, path as string, { ...options, size: bytes.size });
      await once(bytes.stream, 'end');
    }
    // yazl writes a buffer's entry at once, whatever the upload's pace: wait for it to catch up.
    if (output.writableNeedDrain) await once(output, 'drain');
    release();
    await manifest.add(manifestEntry(file, path));
    done.filesDone += 1;
    if (bytes !== null) {
      written += 1;
      // The recorded size, as the run's total counts it (the object's is the same).
      done.bytesDone += file.size;
    }
    await hooks.progress(done);
  }
  await manifest.addTo(zip);
  zip.end();
  return { written, bytesDone: done.bytesDone };
}
