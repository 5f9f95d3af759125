import { S3Client } from '@aws-sdk/client-s3';
import { storageConfig } from '#shared/config/storage';

const { s3Endpoint, bucketName: configuredBucket } = storageConfig();

/**
 * Module-scope client, created once per cold start. Locally it talks path-style to the S3-compatible
 * server the runner and the tests start (s3rver accepts its own fixed credentials); in AWS it uses
 * the function's role.
 *
 * Checksums only where S3 requires them: by default (SDK ≥ 3.729) the client signs the CRC32 of an
 * empty body (`x-amz-checksum-crc32=AAAAAA==`) into every presigned PUT, and S3 then refuses any
 * real body sent to that URL (aws-sdk-js-v3 issue 6994).
 */
export const s3 = new S3Client({
  requestChecksumCalculation: 'WHEN_REQUIRED',
  responseChecksumValidation: 'WHEN_REQUIRED',
  ...(s3Endpoint
    ? {
        endpoint: s3Endpoint,
        forcePathStyle: true,
        region: 'us-east-1',
        credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      }
    : {}),
});

export const bucketName = configuredBucket;
