/**
 * The one table of the headers Zipline 4.4 defines for its clients (its `parseHeaders`, its web
 * uploader, its login): validation (validation/files/upload-headers.ts), the upload answer
 * (http/upload-reply.ts) and the CORS allow-list (routes/cors.ts) are read from it. A header not in
 * the table is ignored, as Zipline ignores it, so a client of a newer Zipline keeps working.
 */

/**
 * `file`: how the uploaded file is stored (the upload and the presigned start read them); `reply`:
 * how the answer is shaped (the upload and the presigned completion); `chunk`: a chunked upload's
 * (the upload, with `content-range`); `session`: sent with a sign-in.
 */
export type ZiplineHeaderGroup = 'file' | 'reply' | 'chunk' | 'session';

/**
 * `honoured`: does what Zipline does; `accepted`: read (and its value checked where it has a syntax)
 * but not yet applied, as `message` says; `refused`: its feature does not exist here yet, so a request
 * that sends it is a 400 with `message` rather than a file stored without it.
 */
export type ZiplineHeaderSupport = 'honoured' | 'accepted' | 'refused';

export interface ZiplineHeader {
  name: string;
  group: ZiplineHeaderGroup;
  support: ZiplineHeaderSupport;
  /** What happens to it: for a refused header, the 400's message. */
  message: string;
}

const header = (
  name: string,
  group: ZiplineHeaderGroup,
  support: ZiplineHeaderSupport,
  message: string,
): ZiplineHeader => ({ name, group, support, message });

// biome-ignore format: one line per header
export const ZIPLINE_HEADERS: readonly ZiplineHeader[] = [
  header('x-zipline-deletes-at', 'file', 'honoured', 'the file expires then (a lifetime, date=<ISO date>, or never)'),
  header('x-zipline-format', 'file', 'honoured', 'how the file name is generated'),
  header('x-zipline-max-views', 'file', 'honoured', 'the file goes after this many views'),
  header('x-zipline-original-name', 'file', 'honoured', 'downloads carry the uploaded name'),
  header('x-zipline-filename', 'file', 'honoured', 'the public name instead of a generated one'),
  header('x-zipline-file-extension', 'file', 'honoured', 'the extension of the generated name'),
  header('x-zipline-extensionless', 'file', 'honoured', 'the generated name without an extension'),
  header('x-zipline-password', 'file', 'honoured', 'downloads and the view page need it'),
  header('x-zipline-image-compression-percent', 'file', 'honoured', 'images of a direct upload re-encoded at this quality (chunked and presigned uploads: stored as sent)'),
  header('x-zipline-image-compression-type', 'file', 'honoured', 'with a percent, the type they are re-encoded to: jpg, png or webp (jxl is a 400)'),
  header('x-zipline-folder', 'file', 'honoured', "the files go into the caller's folder (or, without a token, a folder open for uploads)"),
  header('x-zipline-no-json', 'reply', 'honoured', 'the URLs as plain text, comma-separated'),
  header('x-zipline-domain', 'reply', 'honoured', 'the host the returned URLs name'),
  header('content-range', 'chunk', 'honoured', "the chunk's bytes: bytes start-end/total"),
  header('x-zipline-p-filename', 'chunk', 'honoured', "the chunked file's name"),
  header('x-zipline-p-content-type', 'chunk', 'honoured', "the chunked file's type"),
  header('x-zipline-p-identifier', 'chunk', 'honoured', 'the chunked upload a chunk belongs to'),
  header('x-zipline-p-lastchunk', 'chunk', 'honoured', 'the last chunk: the file is assembled'),
  header('x-zipline-p-content-length', 'chunk', 'honoured', "the chunked file's total size"),
  header('x-zipline-client', 'session', 'accepted', 'accepted, not applied: sessions carry no client name'),
];

export const ZIPLINE_HEADER_NAMES: readonly string[] = ZIPLINE_HEADERS.map(({ name }) => name);

const BY_NAME = new Map(ZIPLINE_HEADERS.map((entry) => [entry.name, entry]));

/** The table's line for a (lower-case) header name; undefined for a header Zipline does not define. */
export const ziplineHeader = (name: string): ZiplineHeader | undefined => BY_NAME.get(name);

/** The names of one group, in the table's order. */
export const headersOf = (group: ZiplineHeaderGroup): string[] =>
  ZIPLINE_HEADERS.filter((entry) => entry.group === group).map(({ name }) => name);
