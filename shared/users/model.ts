import type { Quota } from '#shared/quota';

/** Roles, highest first. */
export const ROLES = ['SUPERADMIN', 'ADMIN', 'USER'] as const;
export type Role = (typeof ROLES)[number];
/** 0 for the highest role; orders users in the listing index. */
export const roleRank = (role: Role) => ROLES.indexOf(role);

export type { Quota } from '#shared/quota';

export type ViewSettings = Record<string, string | boolean>;

/**
 * A provider account linked to the user (issue 15): which provider, its account's id and name there,
 * and when it was linked. No provider token is ever stored.
 */
export interface OAuthLink {
  provider: string;
  username: string;
  providerId: string;
  createdAt: string;
}

/**
 * A passkey as the user sees it (issue 15): its credential id, the name given to it, when it was added
 * and last used. Its key material lives only in its credential item (`passkeyKey`).
 */
export interface PasskeyEntry {
  id: string;
  name: string;
  createdAt: string;
  lastUsed: string | null;
}

/** The `passwordHash` of an account made by a provider sign-in, until a password is set. */
export const NO_PASSWORD = '';

/** A user as stored (minus the generic key attributes). Never returned as is: see `toUserResource`. */
export interface UserRecord {
  id: string;
  username: string;
  passwordHash: string;
  role: Role;
  view: ViewSettings;
  quota: Quota | null;
  /** The TOTP secret encrypted under a service key (mfa/sealing.ts); null or absent while TOTP is off. */
  totpSecret: string | null;
  /** The last TOTP time step a code was accepted for: only later steps are accepted (no replay). */
  totpLastStep?: number;
  /** Hash of each unused recovery code → 1 (mfa/recovery-codes.ts). */
  totpRecovery?: Record<string, number>;
  /** How many times TOTP was turned on: a new enrolment is offered a new secret. */
  totpEnrolments?: number;
  oauthProviders: OAuthLink[];
  passkeys: PasskeyEntry[];
  /** Session id → issue time (ms). A cookie is valid only while its id is here. */
  sessions: Record<string, number>;
  /** Session id → the client's `User-Agent` at sign-in (users/sign-in/sessions.ts); absent on older items. */
  sessionAgents?: Record<string, string>;
  /** The API token's only stored part; the token itself needs the server key. */
  tokenNonce: string;
  createdAt: string;
  updatedAt: string;
  /** Set once a deletion has started: the user can no longer sign in and is removed in batches. */
  deletingAt?: string;
}

/** The public User resource of the contract: exactly these fields, nothing secret. */
export interface UserResource {
  id: string;
  username: string;
  createdAt: string;
  updatedAt: string;
  role: Role;
  view: ViewSettings;
  oauthProviders: OAuthLink[];
  totpSecret: string | null;
  passkeys: PasskeyEntry[];
  quota: Quota | null;
  sessions: string[];
}

/** The TOTP attributes an enrolment writes and turning TOTP off removes (`totpEnrolments` stays). */
export const TOTP_STATE_ATTRIBUTES = ['totpSecret', 'totpLastStep', 'totpRecovery'] as const;

/**
 * The User's `totpSecret` while TOTP is on: a fixed marker, never the secret (which is returned only
 * once, by the enrolment offer). Not base32, so no client can mistake it for a secret.
 */
export const TOTP_ENABLED_MARKER = '(enabled)';

export const isTotpEnabled = (user: Pick<UserRecord, 'totpSecret'>): boolean =>
  typeof user.totpSecret === 'string' && user.totpSecret.length > 0;

export function toUserResource(user: UserRecord): UserResource {
  return {
    id: user.id,
    username: user.username,
    createdAt: user.createdAt,
    updatedAt: user.updatedAt,
    role: user.role,
    view: user.view,
    oauthProviders: user.oauthProviders,
    totpSecret: isTotpEnabled(user) ? TOTP_ENABLED_MARKER : null,
    passkeys: user.passkeys,
    quota: user.quota,
    sessions: Object.keys(user.sessions),
  };
}

export interface Avatar {
  mime: string;
  bytes: Buffer;
}
