import { hkdfSync } from 'node:crypto';
import * as v from 'valibot';
import { setupCodeRequired } from '#shared/config/service';

/**
 * The service's secrets come from one value: a master key, or a list of them for rotation (the first
 * signs, all verify). Locally it is the `SERVICE_KEYS` environment variable (the runner keeps it in
 * `DATA_DIR/keys.json`); in AWS it is a Secrets Manager secret named by `SERVICE_KEYS_SECRET_ARN`,
 * read once per cold start. The session seal password, the token signing key and the TOTP keys are
 * derived from each master key with HKDF (one label each), so none is ever stored or passed around on
 * its own, and none can stand in for another.
 */
const masterKeySchema = v.strictObject({
  id: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,16}$/)),
  secret: v.pipe(v.string(), v.minLength(32)),
});
const serviceKeysSchema = v.union([
  masterKeySchema,
  v.pipe(v.array(masterKeySchema), v.minLength(1), v.maxLength(8)),
]);

export type MasterKey = v.InferOutput<typeof masterKeySchema>;

export interface DerivedKey {
  id: string;
  secret: Buffer;
}

export interface ServiceKeys {
  /** iron seal passwords; the first one seals. */
  session: { current: { id: string; secret: string }; byId: Record<string, string> };
  /** HMAC keys for API tokens; the first one signs. */
  token: { current: DerivedKey; byId: Map<string, Buffer> };
  /** HMAC key for pagination cursors (current master only: a cursor outlives no rotation). */
  cursor: Buffer;
  /** AES-256-GCM keys that encrypt stored TOTP secrets; the first one encrypts. */
  totpSecret: { current: DerivedKey; byId: Map<string, Buffer> };
  /** HMAC keys that derive the TOTP secret offered for enrolment; the first one offers. */
  totpOffer: { current: DerivedKey; byId: Map<string, Buffer> };
}

function derive(master: MasterKey, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', master.secret, master.id, `file-service ${purpose}`, 32));
}

export function parseServiceKeys(raw: string): ServiceKeys {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new Error('service keys are not valid JSON');
  }
  const result = v.safeParse(serviceKeysSchema, json);
  if (!result.success)
    throw new Error('service keys must be {id, secret} or a list of them (secret ≥ 32 characters)');
  const masters = Array.isArray(result.output) ? result.output : [result.output];
  const sessionById: Record<string, string> = Object.create(null);
  for (const master of masters) sessionById[master.id] = derive(master, 'session').toString('hex');
  const first = masters[0] as MasterKey;
  const keyRing = (purpose: string) => {
    const byId = new Map(masters.map((master) => [master.id, derive(master, purpose)]));
    return { current: { id: first.id, secret: byId.get(first.id) as Buffer }, byId };
  };
  return {
    session: { current: { id: first.id, secret: sessionById[first.id] as string }, byId: sessionById },
    token: keyRing('token'),
    cursor: derive(first, 'cursor'),
    totpSecret: keyRing('totp secret'),
    totpOffer: keyRing('totp offer'),
  };
}

async function loadServiceKeys(): Promise<ServiceKeys> {
  const inline = process.env.SERVICE_KEYS;
  if (inline) return parseServiceKeys(inline);
  const secretArn = process.env.SERVICE_KEYS_SECRET_ARN;
  if (!secretArn) throw new Error('SERVICE_KEYS or SERVICE_KEYS_SECRET_ARN must be set');
  return parseServiceKeys(await readSecret(secretArn, 'service keys'));
}

/** A Secrets Manager secret's string value (the SDK client is loaded only by functions that read one). */
async function readSecret(secretArn: string, what: string): Promise<string> {
  const { SecretsManagerClient, GetSecretValueCommand } = await import('@aws-sdk/client-secrets-manager');
  const secret = await new SecretsManagerClient({}).send(new GetSecretValueCommand({ SecretId: secretArn }));
  if (!secret.SecretString) throw new Error(`${what} secret has no string value`);
  return secret.SecretString;
}

/**
 * The OAuth client secrets, by provider id. Locally each is `OAUTH_<PROVIDER>_CLIENT_SECRET`; in AWS
 * one Secrets Manager secret (`OAUTH_CLIENT_SECRETS_ARN`, granted only to the callback function)
 * holds `{"github": "...", "oidc": "...", ...}`.
 */
async function loadOAuthClientSecrets(): Promise<Record<string, string>> {
  const secretArn = process.env.OAUTH_CLIENT_SECRETS_ARN;
  if (!secretArn) {
    const prefix = /^OAUTH_([A-Z]+)_CLIENT_SECRET$/;
    return Object.fromEntries(
      Object.entries(process.env).flatMap(([name, value]) => {
        const provider = prefix.exec(name)?.[1];
        return provider && value ? [[provider.toLowerCase(), value]] : [];
      }),
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(await readSecret(secretArn, 'OAuth client secrets'));
  } catch (error) {
    if (error instanceof SyntaxError) throw new Error('OAuth client secrets are not valid JSON');
    throw error;
  }
  const result = v.safeParse(v.record(v.string(), v.string()), json);
  if (!result.success) throw new Error('OAuth client secrets must be {"<provider>": "<client secret>", ...}');
  return result.output;
}

let oauthSecrets: Promise<Record<string, string>> | undefined;

/** A provider's client secret, or undefined when none is set; loaded once per process. */
export async function oauthClientSecret(provider: string): Promise<string | undefined> {
  oauthSecrets ??= loadOAuthClientSecrets().catch((error: unknown) => {
    oauthSecrets = undefined;
    throw error;
  });
  return (await oauthSecrets)[provider];
}

let setupCodeValue: Promise<string> | undefined;

/**
 * First-run setup's one-time code, loaded once per process; undefined when none is required
 * (`setupCodeRequired`): `SETUP_CODE` itself, or the Secrets Manager secret the stack generates.
 */
export async function setupCode(): Promise<string | undefined> {
  if (!setupCodeRequired()) return undefined;
  const inline = process.env.SETUP_CODE;
  if (inline) return inline;
  setupCodeValue ??= readSecret(process.env.SETUP_CODE_SECRET_ARN as string, 'setup code').catch(
    (error: unknown) => {
      setupCodeValue = undefined;
      throw error;
    },
  );
  return setupCodeValue;
}

let cached: Promise<ServiceKeys> | undefined;

/** Loaded once per process (cold start); a failed load is retried by the next request. */
export function serviceKeys(): Promise<ServiceKeys> {
  cached ??= loadServiceKeys().catch((error: unknown) => {
    cached = undefined;
    throw error;
  });
  return cached;
}

/**
 * Test-only: forgets the keys loaded by this process, so a test can rotate `SERVICE_KEYS` the way a
 * new deployment (cold start) would see it. Production code never calls this.
 */
export function forgetServiceKeysForTests(): void {
  cached = undefined;
}
