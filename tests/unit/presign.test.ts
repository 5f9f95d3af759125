import { GetObjectCommand, HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { jest } from '@jest/globals';
import fc from 'fast-check';
import { bucketName, s3 } from '#shared/s3/client';
import { type ObjectRead, objectReadPresigner, presignObjectRead } from '#shared/s3/presign';

/** What the SDK's own presigning makes of the same read. */
const sdkUrl = (client: S3Client, bucket: string, read: ObjectRead) => {
  const input = {
    Bucket: bucket,
    Key: read.key,
    ResponseContentType: read.contentType,
    ResponseContentDisposition: read.disposition,
  };
  return getSignedUrl(
    client,
    read.method === 'GET' ? new GetObjectCommand(input) : new HeadObjectCommand(input),
    { expiresIn: read.expiresIn },
  );
};

// A fixed clock, Date only: both sides sign at the same instant, so their URLs compare whole.
beforeAll(() => {
  jest.useFakeTimers({
    now: new Date('2026-11-23T10:20:30Z'),
    doNotFake: [
      'nextTick',
      'setImmediate',
      'clearImmediate',
      'setTimeout',
      'clearTimeout',
      'setInterval',
      'clearInterval',
      'queueMicrotask',
      'hrtime',
      'performance',
    ],
  });
});
afterAll(() => jest.useRealTimers());

const reads = fc.record({
  method: fc.constantFrom('GET' as const, 'HEAD' as const),
  key: fc
    .array(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }), { minLength: 1, maxLength: 4 })
    .map((segments) => segments.join('/')),
  contentType: fc.constantFrom('image/png', 'application/octet-stream', 'text/plain; charset=utf-8'),
  disposition: fc
    .string({ unit: 'grapheme', maxLength: 40 })
    .map((name) => `inline; filename*=UTF-8''${encodeURIComponent(name)}`),
  expiresIn: fc.integer({ min: 1, max: 7 * 86_400 }),
});

test('locally (path-style, the test S3 server): the URL getSignedUrl makes, for any key, method and overrides', async () => {
  await fc.assert(
    fc.asyncProperty(reads, async (read) => {
      expect(await presignObjectRead(read)).toBe(await sdkUrl(s3, bucketName, read));
    }),
  );
});

test('in AWS (virtual-hosted, the region from the environment, role credentials): the same', async () => {
  const client = new S3Client({
    region: 'eu-central-1',
    credentials: { accessKeyId: 'AKIAEXAMPLE', secretAccessKey: 'example-secret', sessionToken: 'session' },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const presign = objectReadPresigner(client, 'filesbucket-1a2b3c');
  await fc.assert(
    fc.asyncProperty(reads, async (read) => {
      const url = await presign(read);
      expect(url).toBe(await sdkUrl(client, 'filesbucket-1a2b3c', read));
      expect(new URL(url).host).toBe('filesbucket-1a2b3c.s3.eu-central-1.amazonaws.com');
      expect(new URL(url).searchParams.get('X-Amz-Security-Token')).toBe('session');
    }),
  );
});
