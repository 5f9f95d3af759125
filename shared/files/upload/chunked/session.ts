import { notFound } from '#shared/errors';
import type { FileRecord } from '#shared/files/model';
import { getFile } from '#shared/files/record/store';
import { type PendingUpload, uploadReads } from '#shared/files/reservation/pending';

/**
 * A chunked upload's session as the steps read it: its pending item while it is pending, and once
 * completed the file it became. `receive.ts` binds the reads to one upload (`sessionReads`) and hands
 * them to each step, which re-reads through them after a race instead of coming back here. Each step
 * writes the item itself (`append.ts` the progress a chunk moves on, `assembly.ts` the completion's
 * claim); the reservation's writes (reserve, record, release) are `reservation/`'s.
 */

export const unknownUpload = () =>
  notFound('no chunked upload has this x-zipline-p-identifier (never opened, completed, or expired)');

const chunkedOnly = (upload: PendingUpload | undefined) => (upload?.chunked ? upload : undefined);

/** The caller's chunked upload of this id, while it is pending. */
export async function readSession(userId: string, uploadId: string): Promise<PendingUpload | undefined> {
  return chunkedOnly(await uploadReads(userId, uploadId).pending());
}

/** A session's reads bound to one upload of one user, for the steps to re-read after a race. */
export interface SessionReads {
  /** The upload, while it is pending. */
  pending: () => Promise<PendingUpload | undefined>;
  /** The file it became once completed (of the size it was opened for), while it exists. */
  file: () => Promise<FileRecord | undefined>;
}

export function sessionReads(userId: string, uploadId: string, size: number): SessionReads {
  const reads = uploadReads(userId, uploadId);
  return {
    pending: async () => chunkedOnly(await reads.pending()),
    file: async () => {
      const done = await reads.done();
      if (done?.size !== size) return undefined;
      return getFile(userId, done.fileId, { consistent: true });
    },
  };
}
