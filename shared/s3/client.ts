import { S3Client } from '@aws-sdk/client-s3';
import { storageConfig } from '#shared/config';

const { s3Endpoint, bucketName: configuredBucket } = storageConfig();

/**
 * Module-scope client, created once per cold start. Locally it talks path-style to the S3-compatible
 * server the runner and the tests start (s3rver accepts its own fixed credentials); in AWS it uses
 * the function's role.
 */
export const s3 = new S3Client(
  s3Endpoint
    ? {
        endpoint: s3Endpoint,
        forcePathStyle: true,
        region: 'us-east-1',
        credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      }
    : {},
);

export const bucketName = configuredBucket;
