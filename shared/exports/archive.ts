import { once } from 'node:events';
import type { PassThrough, Readable } from 'node:stream';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import type { ZipFile } from 'yazl';
import type { FileRecord } from '#shared/files/model';
import { bucketName, s3 } from '#shared/s3/client';

/**
 * The zip of a user's files, made as it is uploaded: each file's bytes streamed from S3 into the
 * archive (yazl) and on into the multipart upload (parts.ts), then `manifest.json`. Files are
 * stored, not deflated: most are images, video and archives already compressed, and storing keeps
 * the run bound by S3, not by the CPU. yazl writes ZIP64 records wherever a size or offset passes
 * 4 GiB, so the archive has no size limit of its own.
 */

/** Files up to this size are read whole, several at once, so S3's latency per GET overlaps. */
export const SMALL_FILE_BYTES = 1024 ** 2;
/** Small files read ahead of the one being written (at most 8 MiB in memory). */
export const READ_AHEAD = 8;
export const MANIFEST_NAME = 'manifest.json';

/** What the manifest says of each file (its metadata; the `path` inside the zip, null if missing). */
export interface ManifestEntry {
  id: string;
  name: string;
  originalName: string;
  type: string;
  size: number;
  views: number;
  maxViews: number | null;
  favorite: boolean;
  password: boolean;
  createdAt: string;
  updatedAt: string;
  deletesAt: string | null;
  path: string | null;
}

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
    return size <= SMALL_FILE_BYTES ? Buffer.from(await body.transformToByteArray()) : { stream: body, size };
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

export interface ArchiveHooks {
  /** Called after each file (written or found missing), with how many are done. */
  progress(filesDone: number): Promise<void>;
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
 * Writes every file of `files` and the manifest into `zip`, in order, holding at most `READ_AHEAD`
 * small files and the stream of one large file at a time. Answers how many files were written.
 */
export async function fillArchive(zip: ZipFile, files: readonly FileRecord[], hooks: ArchiveHooks) {
  const output = outputOf(zip);
  const reads = new Map<number, Promise<ObjectBytes>>();
  const readAhead = (from: number) => {
    for (let index = from; index < Math.min(files.length, from + READ_AHEAD); index++) {
      const file = files[index] as FileRecord;
      if (reads.has(index) || file.size > SMALL_FILE_BYTES) continue;
      const read = readObject(file);
      read.catch(() => undefined);
      reads.set(index, read);
    }
  };
  const manifest: ManifestEntry[] = [];
  for (let index = 0; index < files.length; index++) {
    if (!hooks.goOn()) throw new ArchiveStopped(index);
    readAhead(index);
    const file = files[index] as FileRecord;
    const bytes = await (reads.get(index) ?? readObject(file));
    reads.delete(index);
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
    manifest.push(manifestEntry(file, path));
    await hooks.progress(index + 1);
  }
  zip.addBuffer(Buffer.from(JSON.stringify({ version: 1, files: manifest }, null, 1)), MANIFEST_NAME, {
    mtime: new Date(),
  });
  zip.end();
  return manifest.filter((entry) => entry.path !== null).length;
}

const manifestEntry = (file: FileRecord, path: string | null): ManifestEntry => ({
  id: file.id,
  name: file.name,
  originalName: file.originalName,
  type: file.type,
  size: file.size,
  views: file.views,
  maxViews: file.maxViews,
  favorite: file.favorite,
  password: file.passwordHash !== null,
  createdAt: file.createdAt,
  updatedAt: file.updatedAt,
  deletesAt: file.deletesAt,
  path,
});
