import { invalid } from '#shared/errors';
import { MAX_AVATAR_BYTES } from '#shared/users/avatar/avatar-store';
import type { Avatar } from '#shared/users/model';

const DATA_URL = /^data:image\/[a-z0-9.+-]+;base64,/i;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Magic numbers of the accepted image formats: the content decides, not the claimed type. */
function sniff(bytes: Buffer): string | undefined {
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'image/png';
  if (bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  const head = bytes.subarray(0, 6).toString('latin1');
  if (head === 'GIF87a' || head === 'GIF89a') return 'image/gif';
  if (
    bytes.subarray(0, 4).toString('latin1') === 'RIFF' &&
    bytes.subarray(8, 12).toString('latin1') === 'WEBP'
  ) {
    return 'image/webp';
  }
  return undefined;
}

export function decodeAvatar(input: string): Avatar {
  const base64 = input.replace(DATA_URL, '').replace(/\s+/g, '');
  if (base64.length === 0 || base64.length % 4 !== 0 || !BASE64.test(base64)) {
    throw invalid('avatar must be base64 (bare or as a data: URL)');
  }
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length > MAX_AVATAR_BYTES) throw invalid('avatar must be at most 1 MiB');
  const mime = sniff(bytes);
  if (!mime) throw invalid('avatar must be a PNG, JPEG, GIF or WebP image');
  return { mime, bytes };
}

export const avatarDataUrl = (avatar: Avatar) =>
  `data:${avatar.mime};base64,${avatar.bytes.toString('base64')}`;
