import { randomInt } from 'node:crypto';

/**
 * A short link (Zipline's Url): a code and optionally a vanity name, both answered by `/go/{name}`,
 * redirecting to `destination`. Its id is its code: `/api/user/urls/{id}`, `/view/url/{id}` and
 * `/go/{code}` name the same thing, and finding it by any of them is one GetItem.
 */
export interface LinkRecord {
  id: string;
  userId: string;
  code: string;
  /** As typed; it claims its lower-case form (`vanityKey`), so `/go/MyLink` and `/go/mylink` agree. */
  vanity: string | null;
  destination: string;
  enabled: boolean;
  maxViews: number | null;
  passwordHash: string | null;
  /**
   * Views counted on the shards before `maxViews` was last set: the exact counter (`max`) allows
   * `maxViews - viewsBeforeLimit` more (links/views.ts).
   */
  viewsBeforeLimit: number;
  createdAt: string;
  updatedAt: string;
}

/** What the API answers: Zipline 4.4's Url without its password (a flag says whether one is set). */
export interface LinkResource {
  id: string;
  createdAt: string;
  updatedAt: string;
  code: string;
  vanity: string | null;
  destination: string;
  views: number;
  maxViews: number | null;
  enabled: boolean;
  userId: string;
  password: boolean;
}

export const toLinkResource = (link: LinkRecord, views: number): LinkResource => ({
  id: link.id,
  createdAt: link.createdAt,
  updatedAt: link.updatedAt,
  code: link.code,
  vanity: link.vanity,
  destination: link.destination,
  views,
  maxViews: link.maxViews,
  enabled: link.enabled,
  userId: link.userId,
  password: link.passwordHash !== null,
});

/**
 * Codes: 12 characters drawn uniformly (rejection-free `randomInt`) from the 36 lower-case letters and
 * digits: 12 × log2(36) ≈ 62 bits. Lower case only, so a code and a vanity share one case-insensitive
 * namespace and `/go/{name}` is one lookup. A million links guessed at 5,000 requests a second find
 * one about every ten days, and every guess is a logged 404.
 */
export const CODE_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
export const CODE_LENGTH = 12;
export const CODE_BITS = Math.floor(CODE_LENGTH * Math.log2(CODE_ALPHABET.length));

export function newLinkCode(): string {
  let code = '';
  for (let i = 0; i < CODE_LENGTH; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return code;
}

/** The name a vanity claims and `/go/{name}` looks up: lower case, so names differ by more than case. */
export const vanityKey = (vanity: string) => vanity.toLowerCase();

/** The names a link answers to at `/go/` (a vanity spelling its own code is that one name). */
export const linkNames = (link: Pick<LinkRecord, 'code' | 'vanity'>): string[] =>
  link.vanity === null || vanityKey(link.vanity) === link.code
    ? [link.code]
    : [link.code, vanityKey(link.vanity)];
