/**
 * A MIME type's essence as a client may send it (`type/subtype`, RFC 6838's characters). Its own
 * module: validation checks types everywhere, and only the upload paths need `mime`'s database.
 */
export const MIME_TYPE = /^[a-z0-9!#$&^_.+-]{1,63}\/[a-z0-9!#$&^_.+-]{1,63}$/i;
