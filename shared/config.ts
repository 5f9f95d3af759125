/**
 * Environment configuration, read once when a module first needs it and failing fast on bad values.
 * Secrets are not here: see `auth/keys.ts`.
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
}

let loaded: Config | undefined;

export function config(): Config {
  loaded ??= {
    tableName: required('TABLE_NAME'),
    dynamodbEndpoint: process.env.DYNAMODB_ENDPOINT || undefined,
    bcryptCost: readInteger('BCRYPT_COST', 10, 4, 15),
    maxSessions: readInteger('MAX_SESSIONS', 10, 1, 100),
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
