import { PutObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { PENDING_TAG, UPLOAD_URL_SECONDS } from '#shared/files/layout';
import { downloadPresentation } from '#shared/files/presentation';
import { bucketName, s3 } from '#shared/s3/client';
import { presignObjectRead } from '#shared/s3/presign';

/**
 * Presigned URLs of file objects: downloads (a page's media, large files) and presigned uploads' PUTs.
 * Apart from objects.ts's reads and writes, so functions that only store or delete bytes (uploads,
 * deletions, the sweeps) do not bundle the signers.
 */

/** Download URLs live just long enough to be followed. */
export const DOWNLOAD_URL_SECONDS = 60;

export interface DownloadOptions {
  /** A download button's request (`?download=true`): always an attachment. */
  attachment?: boolean;
  /** HEAD: the URL is signed for HEAD (S3 refuses a GET-signed URL for it), the answer's headers alike. */
  method?: 'GET' | 'HEAD';
  /** How long the URL works; `DOWNLOAD_URL_SECONDS` unless a page needs its media longer. */
  expiresIn?: number;
  /** The bytes are UTF-8: text is answered with `charset=utf-8` (see `isUtf8`). */
  utf8?: boolean;
}

export function presignDownload(
  key: string,
  type: string,
  fileName: string,
  options: DownloadOptions = {},
): Promise<string> {
  const { contentType, disposition } = downloadPresentation(
    type,
    fileName,
    options.attachment === true,
    options.utf8 === true,
  );
  return presignObjectRead({
    method: options.method ?? 'GET',
    key,
    contentType,
    disposition,
    expiresIn: options.expiresIn ?? DOWNLOAD_URL_SECONDS,
  });
}

/** The headers a client must send with a presigned upload's PUT (all of them are signed). */
export const uploadHeaders = (type: string) => ({
  'content-type': type,
  'if-none-match': '*',
  'x-amz-tagging': `${PENDING_TAG.Key}=${PENDING_TAG.Value}`,
});

/**
 * A PUT URL for exactly this size and type (both signed, so S3 refuses anything else) that can only
 * create the object, never replace it (`If-None-Match: *`, signed: after the first PUT, or once the
 * upload is completed, S3 answers 412), and tags it pending (`x-amz-tagging`, kept a signed header:
 * S3 ignores tags hoisted into a presigned URL's query). Made by the SDK's `getSignedUrl`, which
 * turns the command's input into those signed headers; it runs once per upload, where reads, signed
 * several per page, take the cheaper way (`presignObjectRead`).
 */
export function presignUpload(key: string, size: number, type: string): Promise<string> {
  return getSignedUrl(
    s3,
    new PutObjectCommand({
      Bucket: bucketName,
      Key: key,
      ContentLength: size,
      ContentType: type,
      IfNoneMatch: '*',
      Tagging: uploadHeaders(type)['x-amz-tagging'],
    }),
    {
      expiresIn: UPLOAD_URL_SECONDS,
      signableHeaders: new Set(['content-type', 'content-length']),
      unhoistableHeaders: new Set(['x-amz-tagging']),
    },
  );
}
