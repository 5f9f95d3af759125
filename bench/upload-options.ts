/**
 * The options of a plain upload (Zipline's defaults: a random name, no expiry, view limit, password
 * or folder), for the benchmarks that make a file as `POST /api/upload` does (`newRecord`).
 */
export const PLAIN_UPLOAD_OPTIONS = {
  format: 'random',
  filename: null,
  extension: null,
  extensionless: false,
  maxViews: null,
  deletesAt: null,
  downloadAsOriginalName: false,
  passwordHash: null,
  folderId: null,
} as const;
