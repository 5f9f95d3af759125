import { notFound } from '#shared/errors';
import { isFileId, MAX_NAME_BYTES } from '#shared/files/names';
import type { HttpRequest } from '#shared/http/request';

/**
 * The formats of the ids a path can name. A path parameter is checked against its format before
 * anything reads storage with it: a value that cannot be an id names nothing (404), and a key over
 * DynamoDB's size limit never reaches DynamoDB.
 */
export interface IdFormat {
  accepts: (value: string) => boolean;
  /** The 404 message, e.g. `user not found`. */
  notFound: string;
}

/** `randomUUID()`, as `createUser` makes them. */
export const USER_ID: IdFormat = {
  accepts: (value) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(value),
  notFound: 'user not found',
};
/** `newFileId()`: 26 lowercase Crockford base32 characters. */
export const FILE_ID: IdFormat = {
  accepts: isFileId,
  notFound: 'file not found',
};
/** A presigned upload: 128 random bits in hex. */
export const UPLOAD_ID: IdFormat = {
  accepts: (value) => /^[0-9a-f]{32}$/.test(value),
  notFound: 'upload not found',
};
/** A public file name: what `fileNameSchema` lets be stored. */
export const PUBLIC_NAME: IdFormat = {
  accepts: (value) =>
    value !== '' && Buffer.byteLength(value) <= MAX_NAME_BYTES && /^[^\p{Cc}\p{Cf}]*$/u.test(value),
  notFound: 'file not found',
};

/** A file's id or, as Zipline's `/api/user/files/{id}` routes take it, its public name. */
export const FILE_ID_OR_NAME: IdFormat = PUBLIC_NAME;

/** A WebAuthn credential id: base64url of at most 1023 bytes (WebAuthn's limit). */
export const PASSKEY_ID: IdFormat = {
  accepts: (value) => /^[A-Za-z0-9_-]{1,1364}$/.test(value),
  notFound: 'passkey not found',
};

/** The named path parameter, when it has the id's format; otherwise the id's 404. */
export function pathId(request: HttpRequest, name: string, format: IdFormat): string {
  const value = request.pathParameters[name];
  if (value === undefined || !format.accepts(value)) throw notFound(format.notFound);
  return value;
}

/** A short link's id (its code, `links/model.ts`): 12 lower-case letters and digits. */
export const LINK_ID: IdFormat = {
  accepts: (value) => /^[a-z0-9]{12}$/.test(value),
  notFound: 'url not found',
};
