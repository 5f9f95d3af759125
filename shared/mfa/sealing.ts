import { createCipheriv, createDecipheriv, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { TOTP_SECRET_BYTES, toBase32 } from '#shared/mfa/totp-code';
import { serviceKeys } from '#shared/secrets';

/**
 * The TOTP secret at rest: AES-256-GCM under a key derived from the master key (secrets.ts, label
 * `totp secret`), stored as `v1.<keyId>.<iv>.<ciphertext + tag>` (base64url). The user id is the
 * additional authenticated data, so a sealed secret copied onto another user does not open. A table
 * dump without the master key yields no secret.
 */
const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export async function sealTotpSecret(userId: string, secretBase32: string): Promise<string> {
  const { totpSecret } = await serviceKeys();
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', totpSecret.current.secret, iv);
  cipher.setAAD(Buffer.from(userId));
  const sealed = Buffer.concat([cipher.update(secretBase32, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return [VERSION, totpSecret.current.id, iv.toString('base64url'), sealed.toString('base64url')].join('.');
}

export interface OpenedSecret {
  secretBase32: string;
  /** False when sealed under a key that is no longer the first: the next accepted code re-seals it. */
  underCurrentKey: boolean;
}

/** The secret, or undefined when it cannot be opened (its key was removed, or it was tampered with). */
export async function openTotpSecret(userId: string, stored: string): Promise<OpenedSecret | undefined> {
  const [version, keyId, iv, sealed, ...rest] = stored.split('.');
  if (version !== VERSION || !keyId || !iv || !sealed || rest.length > 0) return undefined;
  const { totpSecret } = await serviceKeys();
  const key = totpSecret.byId.get(keyId);
  if (!key) return undefined;
  const bytes = Buffer.from(sealed, 'base64url');
  if (bytes.length <= TAG_BYTES) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(userId));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    const plain = Buffer.concat([
      decipher.update(bytes.subarray(0, bytes.length - TAG_BYTES)),
      decipher.final(),
    ]);
    return { secretBase32: plain.toString('utf8'), underCurrentKey: keyId === totpSecret.current.id };
  } catch {
    return undefined;
  }
}

/**
 * The secret offered to a user for enrolment: HMAC(offer key, user id, enrolment count), so the
 * server can recognise its own offer in `POST /api/user/mfa/totp` without storing anything, a client
 * cannot enrol a secret of its own choosing, and every GET shows the same secret until an enrolment
 * (a reload while the app scans changes nothing). The count changes with every enrolment, so turning
 * TOTP off and on again never offers an earlier secret.
 */
const offerBytes = (key: Buffer, userId: string, enrolments: number) =>
  createHmac('sha256', key).update(`${userId}\0${enrolments}`).digest().subarray(0, TOTP_SECRET_BYTES);

export async function offeredSecret(userId: string, enrolments: number): Promise<string> {
  const { totpOffer } = await serviceKeys();
  return toBase32(offerBytes(totpOffer.current.secret, userId, enrolments));
}

/** True when `secretBase32` is what some current service key offers this user now. */
export async function isOfferedSecret(
  userId: string,
  enrolments: number,
  secretBase32: string,
): Promise<boolean> {
  const { totpOffer } = await serviceKeys();
  const given = Buffer.from(secretBase32.toUpperCase());
  let matches = false;
  for (const key of totpOffer.byId.values()) {
    const expected = Buffer.from(toBase32(offerBytes(key, userId, enrolments)));
    if (given.length === expected.length && timingSafeEqual(given, expected)) matches = true;
  }
  return matches;
}
