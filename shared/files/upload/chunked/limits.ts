/**
 * The sizes a chunked upload's requests keep to. Imports nothing, so `GET /api/server/public`, which
 * advertises the chunk size, reads it here without the bucket modules of the upload path.
 */

/**
 * Lambda takes at most 6 MB of request payload, and API Gateway base64-encodes a binary body (4/3),
 * so 4 MiB of multipart body (5.6 MB encoded, plus headers) is what surely arrives; beyond it: 413.
 */
export const UPLOAD_BODY_LIMIT = 4 * 1024 * 1024;

/**
 * The chunk size a client should send (Zipline's `chunks.size`, which its web uploader and careful
 * clients read from `GET /api/server/public`): 3 MiB, well inside `UPLOAD_BODY_LIMIT` with its
 * multipart envelope. Files from this size up go in chunks (`chunks.max`).
 */
export const CHUNK_BYTES = 3 * 1024 * 1024;

/** The chunk size as Zipline's configuration writes it (`3mb`: Zipline reads `mb` as MiB). */
export const CHUNK_SIZE_TEXT = `${CHUNK_BYTES / 1024 / 1024}mb`;
