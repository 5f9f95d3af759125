import * as v from 'valibot';
import { invalid } from '#shared/errors';
import { NO_CONTROL_CHARACTERS, strictMessage } from '#shared/validation/text';

/**
 * The rules of a short link's input (docs/links.md). A destination is an absolute `http:` or `https:`
 * URL of at most 2,048 characters with a host, without control characters or spaces: `javascript:`,
 * `data:`, `file:` and the like are refused, so a redirect never runs script on this origin.
 */
export const MAX_DESTINATION_LENGTH = 2048;
export const MAX_VANITY_LENGTH = 100;
const MAX_VIEWS = 2 ** 31 - 1;

export function isAllowedDestination(value: string): boolean {
  if (value.length > MAX_DESTINATION_LENGTH || !NO_CONTROL_CHARACTERS.test(value) || /\s/u.test(value)) {
    return false;
  }
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
}

const DESTINATION_RULE = `must be an http or https URL of at most ${MAX_DESTINATION_LENGTH} characters, without spaces or control characters`;
const destinationSchema = v.pipe(v.string(DESTINATION_RULE), v.check(isAllowedDestination, DESTINATION_RULE));

/**
 * Names no vanity may take: the service's own first path segments and words a visitor would take
 * for the service speaking (so `/go/login` is never someone's link).
 */
export const RESERVED_VANITIES = new Set([
  'api',
  'go',
  'view',
  'raw',
  'u',
  'dashboard',
  'auth',
  'login',
  'logout',
  'register',
  'setup',
  'invite',
  'invites',
  'admin',
  'settings',
  'user',
  'users',
  'files',
  'urls',
  'links',
  'static',
  'assets',
  'favicon.ico',
  'robots.txt',
  'oembed',
  'healthcheck',
]);

/**
 * A vanity: 1–100 of `A–Z a–z 0–9 . _ ~ -` (URL-safe as is), not only dots, not reserved. Case is
 * kept for display and ignored for uniqueness and lookup: `MyLink` and `mylink` are one name.
 */
const VANITY_RULE = `must be 1 to ${MAX_VANITY_LENGTH} of the characters A-Z a-z 0-9 . _ ~ -`;
const vanitySchema = v.pipe(
  v.string(VANITY_RULE),
  v.regex(/^[A-Za-z0-9._~-]{1,100}$/, VANITY_RULE),
  v.check((value) => !/^\.+$/.test(value), 'must not be only dots'),
  v.check((value) => !RESERVED_VANITIES.has(value.toLowerCase()), 'is a reserved word'),
);

const maxViewsSchema = v.pipe(
  v.number('must be an integer or null'),
  v.integer('must be an integer'),
  v.minValue(0, 'must be at least 0'),
  v.maxValue(MAX_VIEWS),
);

/** `POST /api/user/urls` (Zipline's body; `""` or null vanity: none). */
export const createLinkSchema = v.strictObject(
  {
    destination: destinationSchema,
    vanity: v.optional(v.nullable(v.union([v.literal(''), vanitySchema], VANITY_RULE)), null),
    enabled: v.optional(v.boolean('must be a boolean'), true),
  },
  strictMessage,
);

/** `PATCH /api/user/urls/{id}`: what is present changes; null removes vanity, maxViews, password. */
export const patchLinkSchema = v.strictObject(
  {
    destination: v.optional(destinationSchema),
    vanity: v.optional(v.nullable(vanitySchema)),
    maxViews: v.optional(v.nullable(maxViewsSchema)),
    password: v.optional(v.nullable(v.string('must be a string or null'))),
    enabled: v.optional(v.boolean('must be a boolean')),
  },
  strictMessage,
);

/** `POST /api/user/urls/{id}/password`. */
export const linkPasswordSchema = v.strictObject(
  { password: v.pipe(v.string('must be a string'), v.minLength(1, 'must not be empty'), v.maxLength(1024)) },
  strictMessage,
);

export const SEARCH_FIELDS = ['destination', 'vanity', 'code'] as const;
export type SearchField = (typeof SEARCH_FIELDS)[number];

/** `GET /api/user/urls?searchField=&searchQuery=` (Zipline's; the field defaults to destination). */
export function readLinkSearch(query: Record<string, string>): { field: SearchField; text: string } | null {
  const field = query.searchField ?? 'destination';
  if (!(SEARCH_FIELDS as readonly string[]).includes(field)) {
    throw invalid(`searchField must be one of ${SEARCH_FIELDS.join(', ')}`);
  }
  const text = query.searchQuery;
  if (text === undefined || text === '') return null;
  if (text.length > MAX_DESTINATION_LENGTH) throw invalid('searchQuery is too long');
  return { field: field as SearchField, text };
}

/** A name `/go/` and the link routes may look up: a code or a vanity (anything else names nothing). */
export const LINK_NAME = {
  accepts: (value: string) => /^[A-Za-z0-9._~-]{1,100}$/.test(value),
  notFound: 'url not found',
};
