import { type PendingUpload, pendingUploads, sessionEnd } from '#shared/files/reservation/pending';

// No bucket here: the listing's function has none (abandoning is abandon.ts).

/**
 * A chunked upload not yet completed, as `GET /api/user/files/incomplete` lists it: Zipline 4.4's
 * incomplete file (`status`, `chunksTotal`, `chunksComplete`, `metadata.file`), plus what this
 * service knows exactly: the bytes received of the total and until when chunks are taken.
 */
export interface IncompleteUpload {
  id: string;
  createdAt: string;
  updatedAt: string;
  /** Always `PENDING`: a file is assembled in the request of its last chunk, so none waits to be. */
  status: 'PENDING';
  /** Counted in chunks of the first chunk's size (0 when it is unknown: uploads begun before 4.4's route). */
  chunksTotal: number;
  chunksComplete: number;
  metadata: { file: { id: null; filename: string; type: string } };
  userId: string;
  bytesReceived: number;
  size: number;
  /** After this, the upload takes no chunk and its room is given back when needed. */
  expiresAt: string;
}

function incomplete(userId: string, upload: PendingUpload): IncompleteUpload | undefined {
  const progress = upload.chunked;
  if (!progress) return undefined;
  const chunk = progress.chunkBytes ?? 0;
  return {
    id: upload.id,
    createdAt: upload.createdAt,
    // The reservation moves on with each chunk: it was last extended an hour before it runs out.
    updatedAt: upload.createdAt,
    status: 'PENDING',
    chunksTotal: chunk ? Math.ceil(upload.size / chunk) : 0,
    chunksComplete: chunk ? Math.ceil(progress.received / chunk) : 0,
    metadata: { file: { id: null, filename: upload.originalName, type: upload.type } },
    userId,
    bytesReceived: progress.received,
    size: upload.size,
    expiresAt: new Date(sessionEnd(upload)).toISOString(),
  };
}

/** The caller's chunked uploads begun and not completed, abandoned or expired, oldest first. */
export async function listIncomplete(userId: string, now = Date.now()): Promise<IncompleteUpload[]> {
  const uploads = await pendingUploads(userId);
  return uploads
    .filter((upload) => upload.chunked && sessionEnd(upload) > now)
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
    .flatMap((upload) => incomplete(userId, upload) ?? []);
}
