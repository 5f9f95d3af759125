import { invalid } from '#shared/errors';
import { isChosenName, type NameFormat, type Naming, newPublicName } from '#shared/files/names';
import type { PendingUpload } from '#shared/files/reservation/pending';
import type { Quota } from '#shared/quota';

/** Who uploads: the account the files count against. */
export interface Uploader {
  id: string;
  quota: Quota | null;
}

/** Options of an upload, from the `x-zipline-*` headers. */
export interface UploadOptions extends Naming {
  maxViews: number | null;
  deletesAt: string | null;
  downloadAsOriginalName: boolean;
  /** bcrypt hash of `x-zipline-password` (hashed by the handler), or null. */
  passwordHash: string | null;
  /** `x-zipline-folder`: the owner's folder the files go into (checked open before any byte is stored), or null. */
  folderId: string | null;
}

/** The options a pending upload keeps until its file is recorded. */
export type PendingUploadOptions = Pick<PendingUpload, keyof UploadOptions>;

/**
 * The options a pending upload keeps until its file is recorded, field by field: the handlers'
 * option objects may carry more (reply options such as the domain) that the item must not store.
 */
export const pendingUploadOptions = (options: UploadOptions): PendingUploadOptions => ({
  format: options.format,
  filename: options.filename,
  extension: options.extension,
  extensionless: options.extensionless,
  maxViews: options.maxViews,
  deletesAt: options.deletesAt,
  downloadAsOriginalName: options.downloadAsOriginalName,
  passwordHash: options.passwordHash,
  folderId: options.folderId,
});

/**
 * The inverse of `pendingUploadOptions`: the options a pending upload was started with, the naming
 * and password fields defaulted on items of earlier versions, which lack them.
 */
export const uploadOptionsOf = (upload: PendingUploadOptions): UploadOptions => ({
  format: upload.format as NameFormat,
  filename: upload.filename ?? null,
  extension: upload.extension ?? null,
  extensionless: upload.extensionless ?? false,
  maxViews: upload.maxViews,
  deletesAt: upload.deletesAt,
  downloadAsOriginalName: upload.downloadAsOriginalName,
  passwordHash: upload.passwordHash ?? null,
  folderId: upload.folderId ?? null,
});

/** Public names are download links and sort keys: `/raw/{name}` takes at most this many bytes. */
const MAX_PUBLIC_NAME_BYTES = 255;

/**
 * Refuses, before anything is stored, an upload whose chosen names cannot be stored: too long with
 * the extension added, or the same name for two files of one upload.
 */
export function assertNamesFit(options: UploadOptions, originalNames: string[]): void {
  const names = originalNames.map((name) => newPublicName(options, name));
  for (const name of names) {
    if (Buffer.byteLength(name) > MAX_PUBLIC_NAME_BYTES) {
      throw invalid(
        `the file name ${name.slice(0, 40)}… is over ${MAX_PUBLIC_NAME_BYTES} bytes with its extension`,
      );
    }
  }
  if (isChosenName(options) && new Set(names).size < names.length) {
    throw invalid('two files of this upload would have the same name: upload them one by one');
  }
}
