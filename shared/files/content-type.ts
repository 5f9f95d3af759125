import mime from 'mime';
import { MIME_TYPE } from '#shared/files/mime-type';

const UNKNOWN = 'application/octet-stream';

/**
 * The type a file is recorded with, the same on every upload path (direct, presigned, chunked): the
 * client's own, lowercased, unless it sent none, one that is not a type, or `application/octet-stream`
 * (what curl, ShareX and most HTTP libraries send for any file). Then the type the file name's
 * extension has in `mime`'s database (built from mime-db: IANA, Apache and nginx, extension conflicts
 * settled by mime-score), else `application/octet-stream`. So `app.js` from curl is `text/javascript`
 * as from the dashboard. Parameters (`; charset=`) are dropped: downloads add the charset themselves.
 */
export function recordedType(sent: string | undefined, fileName: string): string {
  const essence = sent?.split(';')[0]?.trim().toLowerCase() ?? '';
  if (MIME_TYPE.test(essence) && essence !== UNKNOWN) return essence;
  return mime.getType(fileName) ?? UNKNOWN;
}
