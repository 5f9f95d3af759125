/**
 * Environment configuration, read once when a module first needs it and failing fast on bad values.
 * Secrets are not here: see `secrets.ts`.
 */
function readInteger(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be an integer between ${min} and ${max}`);
  }
  return value;
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

export interface Config {
  tableName: string;
  /** Set only for DynamoDB Local; the cloud uses the regional endpoint. */
  dynamodbEndpoint: string | undefined;
  bcryptCost: number;
  /** Session ids kept per user; the oldest is dropped first. */
  maxSessions: number;
  /** Attempt limits per fixed window (see `throttle/counter.ts`). */
  throttle: {
    windowSeconds: number;
    loginPerUsername: number;
    loginPerAddress: number;
    setupPerAddress: number;
    tokenResetsPerUser: number;
    /** Wrong file-password guesses per file name (unknown names alike). */
    filePasswordPerFile: number;
    /** File-password checks (bcrypt compares, right or wrong, any name) per client address. */
    filePasswordPerAddress: number;
    /** Checks per client address at a name whose own limit is used up (its viewers still get in). */
    filePasswordPerAddressAtThrottledName: number;
    renamesPerUser: number;
    /** Registrations (open or by invite) per client address: each hashes a password. */
    registerPerAddress: number;
  };
  /** Origins (besides the service's own) whose browser pages may write with the session cookie. */
  allowedOrigins: string[];
}

function originList(name: string): string[] {
  const origins = (process.env[name] ?? '')
    .split(',')
    .map((origin) => origin.trim().toLowerCase())
    .filter(Boolean);
  for (const origin of origins) {
    if (!/^https?:\/\/[^/\s]+$/.test(origin))
      throw new Error(`${name}: "${origin}" is not an origin such as https://example.com`);
  }
  return origins;
}

let loaded: Config | undefined;

export function config(): Config {
  loaded ??= {
    tableName: required('TABLE_NAME'),
    dynamodbEndpoint: process.env.DYNAMODB_ENDPOINT || undefined,
    bcryptCost: readInteger('BCRYPT_COST', 10, 4, 15),
    maxSessions: readInteger('MAX_SESSIONS', 10, 1, 100),
    throttle: {
      windowSeconds: readInteger('THROTTLE_WINDOW_SECONDS', 900, 60, 86400),
      loginPerUsername: readInteger('LOGIN_LIMIT_PER_USERNAME', 10, 1, 10000),
      loginPerAddress: readInteger('LOGIN_LIMIT_PER_ADDRESS', 50, 1, 100000),
      setupPerAddress: readInteger('SETUP_LIMIT_PER_ADDRESS', 10, 1, 10000),
      tokenResetsPerUser: readInteger('TOKEN_RESET_LIMIT_PER_USER', 10, 1, 10000),
      filePasswordPerFile: readInteger('FILE_PASSWORD_LIMIT_PER_FILE', 10, 1, 10000),
      filePasswordPerAddress: readInteger('FILE_PASSWORD_LIMIT_PER_ADDRESS', 30, 1, 100000),
      filePasswordPerAddressAtThrottledName: readInteger('FILE_PASSWORD_LIMIT_AT_THROTTLED_NAME', 3, 1, 100),
      renamesPerUser: readInteger('RENAME_LIMIT_PER_USER', 10, 1, 10000),
      registerPerAddress: readInteger('REGISTER_LIMIT_PER_ADDRESS', 5, 1, 10000),
    },
    allowedOrigins: originList('ALLOWED_ORIGINS'),
  };
  return loaded;
}

export interface StorageConfig {
  bucketName: string;
  /** Set only for the local S3-compatible server (path-style addressing); the cloud uses S3 itself. */
  s3Endpoint: string | undefined;
}

let storage: StorageConfig | undefined;

/** Separate from `config()`: only the routes that touch file bytes need a bucket. */
export function storageConfig(): StorageConfig {
  storage ??= {
    bucketName: required('BUCKET_NAME'),
    s3Endpoint: process.env.S3_ENDPOINT || undefined,
  };
  return storage;
}

/** The stack's defaults of some run-time settings (settings/model.ts has the others). */
export interface DeploySettingDefaults {
  siteTitle: string;
  userRegistration: boolean;
}

let settingDefaults: DeploySettingDefaults | undefined;

/** `SITE_TITLE`, `USER_REGISTRATION` (true/false): defaults an administrator changes at run time. */
export function deploySettingDefaults(): DeploySettingDefaults {
  settingDefaults ??= {
    siteTitle: (process.env.SITE_TITLE ?? '').trim().slice(0, 64) || 'File service',
    userRegistration: readBoolean('USER_REGISTRATION'),
  };
  return settingDefaults;
}

/** The external sign-in providers a deployment can offer (issue 15). */
export const OAUTH_PROVIDERS = ['oidc', 'github', 'discord', 'google'] as const;
export type OAuthProviderId = (typeof OAUTH_PROVIDERS)[number];

/** Names shown on the dashboard's buttons; an OIDC provider's comes from `OAUTH_OIDC_NAME`. */
const PROVIDER_NAMES: Record<OAuthProviderId, string> = {
  oidc: 'OpenID Connect',
  github: 'GitHub',
  discord: 'Discord',
  google: 'Google',
};

export interface OAuthProviderConfig {
  id: OAuthProviderId;
  name: string;
  clientId: string;
  /** The OIDC issuer, found by discovery (`oidc`: `OAUTH_OIDC_ISSUER`; `google`: Google's). */
  issuer: string | undefined;
}

export interface OAuthConfig {
  /** Only the providers with a client id; none by default. */
  providers: OAuthProviderConfig[];
  /** A sign-in by a provider account no user has linked creates a USER (`OAUTH_SIGNUP=true`). */
  signup: boolean;
}

export const GOOGLE_ISSUER = 'https://accounts.google.com';

function issuerUrl(name: string): string {
  const value = required(name);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${name}: "${value}" is not a URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new Error(`${name} must be an http(s) URL`);
  return value.replace(/\/$/, '');
}

let oauth: OAuthConfig | undefined;

/**
 * Separate from `config()`: only the sign-in functions read it. A provider is configured by its
 * client id (`OAUTH_<PROVIDER>_CLIENT_ID`, from stack context in AWS); its client secret is a secret
 * (`secrets.ts`). An OIDC client id without its issuer stops the start.
 */
export function oauthConfig(): OAuthConfig {
  oauth ??= {
    providers: OAUTH_PROVIDERS.flatMap((id) => {
      const clientId = process.env[`OAUTH_${id.toUpperCase()}_CLIENT_ID`];
      if (!clientId) return [];
      const name = (id === 'oidc' && process.env.OAUTH_OIDC_NAME) || PROVIDER_NAMES[id];
      const issuer =
        id === 'oidc' ? issuerUrl('OAUTH_OIDC_ISSUER') : id === 'google' ? GOOGLE_ISSUER : undefined;
      return [{ id, name, clientId, issuer }];
    }),
    signup: readBoolean('OAUTH_SIGNUP'),
  };
  return oauth;
}

function readBoolean(name: string): boolean {
  const raw = process.env[name];
  if (raw === undefined || raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  throw new Error(`${name} must be true or false`);
}

/** A passkey ceremony's relying party: the host name passkeys are bound to, and the origin signed for. */
export interface RelyingParty {
  /** Never an IP address (WebAuthn refuses them). */
  rpId: string;
  origin: string;
}

export interface PasskeyConfig {
  /**
   * The dashboard's origin and relying party when configured (`PASSKEY_ORIGIN`: `npm start` sets
   * `http://localhost:<port>`, the stack `https://<domainName>`); undefined behind the stack's own
   * CloudFront name, which no function can know (it would depend on the distribution that depends
   * on the API): then the dashboard's host as the distribution reports it (`http/origin.ts`).
   */
  fixed: RelyingParty | undefined;
  /** Shown by the authenticator beside the account name. */
  rpName: string;
}

/** The relying party of a dashboard origin; an IP address cannot be one (use localhost locally). */
export function relyingPartyOf(origin: string, rpIdOverride?: string): RelyingParty | undefined {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return undefined;
  }
  const rpId = (rpIdOverride || url.hostname).toLowerCase();
  if (/^[\d.]+$/.test(rpId) || rpId.includes(':') || rpId.startsWith('[')) return undefined;
  if (url.hostname !== rpId && !url.hostname.endsWith(`.${rpId}`)) return undefined;
  return { rpId, origin: url.origin };
}

let passkeys: PasskeyConfig | undefined;

/** Separate from `config()`: only the passkey functions read it (issue 15). */
export function passkeyConfig(): PasskeyConfig {
  if (passkeys) return passkeys;
  const origins = originList('PASSKEY_ORIGIN');
  if (origins.length > 1)
    throw new Error('PASSKEY_ORIGIN must be one origin such as https://files.example.com');
  const fixed = origins[0] === undefined ? undefined : relyingPartyOf(origins[0], process.env.PASSKEY_RP_ID);
  if (origins[0] !== undefined && !fixed)
    throw new Error(
      `PASSKEY_ORIGIN ${origins[0]}: passkeys need a domain name (not an IP address; locally http://localhost:<port>), and PASSKEY_RP_ID must be that name or a parent domain of it`,
    );
  passkeys = { fixed, rpName: process.env.PASSKEY_RP_NAME || 'File service' };
  return passkeys;
}

let origin: { secret: string | undefined } | undefined;

/**
 * The value the stack's CloudFront distribution sends in `x-origin-secret` with every request it
 * passes to the API (`ORIGIN_SECRET`, from a generated secret): only a request carrying it may
 * speak for the viewer (`http/distribution.ts`). Unset locally, where no distribution stands in front.
 */
export function originSecret(): string | undefined {
  if (origin) return origin.secret;
  const secret = process.env.ORIGIN_SECRET || undefined;
  if (secret !== undefined && secret.length < 32)
    throw new Error('ORIGIN_SECRET must be at least 32 characters');
  origin = { secret };
  return secret;
}

let publicOriginValue: { origin: string | undefined } | undefined;

/**
 * The dashboard's origin when configured (`PUBLIC_ORIGIN`: the stack sets its custom domain or the
 * distribution's name on the sign-in functions): where a provider sends the browser back. Unset
 * under `npm start`, where the runner's own address is the only one.
 */
export function publicOrigin(): string | undefined {
  if (publicOriginValue) return publicOriginValue.origin;
  const origins = originList('PUBLIC_ORIGIN');
  if (origins.length > 1)
    throw new Error('PUBLIC_ORIGIN must be one origin such as https://files.example.com');
  publicOriginValue = { origin: origins[0] };
  return origins[0];
}

/**
 * First-run setup needs a one-time code (`POST /api/setup`): in AWS always (`SETUP_CODE_SECRET_ARN`,
 * a secret the stack generates), locally when `SETUP_CODE` is given (`npm start` asks for none:
 * whoever runs it is its operator). The code itself is a secret: `secrets.ts`.
 */
export const setupCodeRequired = (): boolean =>
  Boolean(process.env.SETUP_CODE || process.env.SETUP_CODE_SECRET_ARN);
