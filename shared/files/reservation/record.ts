import { invalid } from '#shared/errors';
import { fileObjectKey } from '#shared/files/layout';
import type { FileRecord } from '#shared/files/model';
import { isChosenName, newFileId, newPublicName } from '#shared/files/names';
import { insertFiles } from '#shared/files/record/creation';
import { NameTaken } from '#shared/files/record/store';
import type { UploadOptions } from '#shared/files/reservation/options';
import { countMetric } from '#shared/log/metrics';
import type { QuotaLimits } from '#shared/quota';

/** The description of a file whose bytes are (or are about to be) stored. */
export interface IncomingFileMeta {
  originalName: string;
  type: string;
  size: number;
}

/** A new file's record; its bytes are at `objectKey` (by default the key of its id). */
export function newRecord(
  userId: string,
  upload: IncomingFileMeta,
  options: UploadOptions,
  objectKey?: string,
) {
  const now = new Date();
  const id = newFileId(now.getTime());
  const record: FileRecord = {
    id,
    name: newPublicName(options, upload.originalName, now),
    originalName: upload.originalName,
    size: upload.size,
    type: upload.type,
    views: 0,
    maxViews: options.maxViews,
    favorite: false,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
    deletesAt: options.deletesAt,
    downloadAsOriginalName: options.downloadAsOriginalName,
    objectKey: objectKey ?? fileObjectKey(userId, id),
    passwordHash: options.passwordHash,
    version: 1,
    thumbnail: null,
    folderId: options.folderId,
    tags: [],
  };
  return record;
}

/**
 * Records the metadata of files whose bytes are stored. A generated name that happens to be taken
 * is drawn again; a name the client chose (`format: name`, `x-zipline-filename`) that is taken is
 * its error.
 */
export async function record(
  userId: string,
  files: FileRecord[],
  options: UploadOptions,
  quota: QuotaLimits | 'reserved',
  extra: Parameters<typeof insertFiles>[3] = [],
): Promise<FileRecord[]> {
  for (let attempt = 1; ; attempt++) {
    try {
      await insertFiles(userId, files, quota, extra);
      countMetric('FilesUploaded', files.length);
      countMetric(
        'BytesUploaded',
        files.reduce((sum, file) => sum + file.size, 0),
      );
      return files;
    } catch (error) {
      if (!(error instanceof NameTaken)) throw error;
      if (isChosenName(options)) throw invalid(error.message);
      if (attempt >= 3) throw error;
      const taken = files.find((file) => file.name === error.fileName) as FileRecord;
      taken.name = newPublicName(options, taken.originalName);
    }
  }
}
