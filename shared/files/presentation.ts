/**
 * How a file's bytes are presented to a browser, whoever serves them (the function itself or S3
 * through a presigned URL): type, charset and disposition. Nothing here touches S3.
 */

/**
 * The only types shown in the browser (`inline`): ones no browser runs script from, whatever the
 * bytes are. Raster images (never SVG), audio, video and plain text. Everything else (HTML, XHTML,
 * SVG, XML with its XSLT, PDF, unknown and sniffable types) is an attachment served as
 * `application/octet-stream`, so no browser renders, sniffs or runs it.
 */
const INLINE_TYPES =
  /^(image\/(png|jpeg|gif|webp|avif|bmp|apng|x-icon|vnd\.microsoft\.icon)|audio\/[a-z0-9.+-]+|video\/[a-z0-9.+-]+|text\/plain)$/;

const typeEssence = (type: string) => type.split(';')[0]?.trim().toLowerCase() ?? '';

/** Whether downloads of this type are shown in the browser (`inline`) rather than saved. */
export const isServedInline = (type: string) => INLINE_TYPES.test(typeEssence(type));

/**
 * How a download is served: type and disposition go into the presigned URL as S3's
 * `response-content-type` / `response-content-disposition` overrides. They are signed, so whoever
 * holds the URL cannot change them, and S3 answers with them whatever metadata the object has (the
 * type an upload claimed never reaches the browser unless it is on the allowlist).
 */
export function downloadPresentation(type: string, fileName: string, attachment = false, utf8 = false) {
  const essence = typeEssence(type);
  const filename = `filename*=UTF-8''${encodeURIComponent(fileName)}`;
  if (!isServedInline(essence)) {
    return { contentType: 'application/octet-stream', disposition: `attachment; ${filename}` };
  }
  return {
    contentType: utf8 && isText(essence) ? `${essence}; charset=utf-8` : essence,
    disposition: `${attachment ? 'attachment' : 'inline'}; ${filename}`,
  };
}

/** Text served inline: a browser needs its charset, or it guesses windows-1252 (`GrÃ¼ÃŸe`). */
export const isText = (type: string) => isServedInline(type) && typeEssence(type).startsWith('text/');

/**
 * Whether bytes are UTF-8 (ASCII is): what their `charset=utf-8` claims. `complete: false` for the
 * start of a longer file, whose last character the cut may have split.
 */
export function isUtf8(bytes: Uint8Array, complete = true): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: !complete });
    return true;
  } catch {
    return false;
  }
}
