import { required } from '#shared/config/env';

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
