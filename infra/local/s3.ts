import { mkdirSync } from 'node:fs';
import type { S3Event } from 'aws-lambda';
import S3rver, { type S3rverContext } from 's3rver';
import { cacheBucketConfigurations } from './s3-config-cache.ts';

/**
 * The notification S3 sends for one event on one object (the fields the handlers read), the key
 * URL-encoded as S3 encodes it (spaces as `+`, slashes kept).
 */
export const s3Event = (bucket: string, key: string, eventName = 'ObjectCreated:Put'): S3Event => ({
  Records: [
    {
      eventVersion: '2.1',
      eventSource: 'aws:s3',
      awsRegion: 'us-east-1',
      eventTime: new Date().toISOString(),
      eventName,
      userIdentity: { principalId: 'local' },
      requestParameters: { sourceIPAddress: '127.0.0.1' },
      responseElements: { 'x-amz-request-id': 'local', 'x-amz-id-2': 'local' },
      s3: {
        s3SchemaVersion: '1.0',
        configurationId: 'local',
        bucket: { name: bucket, ownerIdentity: { principalId: 'local' }, arn: `arn:aws:s3:::${bucket}` },
        object: {
          key: encodeURIComponent(key).replaceAll('%2F', '/').replaceAll('%20', '+'),
          size: 0,
          eTag: '',
          sequencer: '0',
        },
      },
    },
  ],
});

/**
 * What S3 notifies for an answered request, named as S3 names it, for the requests this service
 * sends: PutObject (through a presigned URL too), CopyObject, CompleteMultipartUpload and
 * PutObjectTagging. s3rver's own events name a multipart completion `ObjectCreated:Post` and leave
 * tagging out, so they are not used. (S3 also notifies browser-form POSTs and deletions; nothing here
 * subscribes to those.)
 */
function eventOf(request: S3rverContext): { bucket: string; key: string; eventName: string } | undefined {
  if (request.status < 200 || request.status > 299) return undefined;
  const match = /^\/([^/]+)\/(.+)$/.exec(request.path);
  if (!match) return undefined;
  const [, bucket, key] = match as unknown as [string, string, string];
  const object = { bucket, key: decodeURIComponent(key) };
  const has = (parameter: string) => parameter in request.query;
  if (request.method === 'PUT' && has('tagging')) return { ...object, eventName: 'ObjectTagging:Put' };
  if (request.method === 'POST' && has('uploadId'))
    return { ...object, eventName: 'ObjectCreated:CompleteMultipartUpload' };
  if (request.method !== 'PUT' || has('uploadId') || has('acl')) return undefined;
  const copy = 'x-amz-copy-source' in request.headers;
  return { ...object, eventName: copy ? 'ObjectCreated:Copy' : 'ObjectCreated:Put' };
}

export interface S3Local {
  /** Path-style endpoint for `S3_ENDPOINT`. */
  endpoint: string;
  /** Calls `listener` with each object notification, as S3 would send it (see object-events.ts). */
  onObjectEvent(listener: (event: S3Event) => void): void;
  stop(): Promise<void>;
}

/** Lets a browser (the dashboard) PUT to presigned upload URLs and follow download redirects. */
const CORS = `<CORSConfiguration><CORSRule><AllowedOrigin>*</AllowedOrigin><AllowedMethod>GET</AllowedMethod><AllowedMethod>PUT</AllowedMethod><AllowedMethod>HEAD</AllowedMethod><AllowedHeader>*</AllowedHeader><MaxAgeSeconds>600</MaxAgeSeconds></CORSRule></CORSConfiguration>`;

/**
 * Starts s3rver, an S3-compatible server in this process, storing objects under `directory` and
 * creating `bucketName` if needed, so the service's S3 code runs unchanged against it. It listens on
 * loopback unless `address` says otherwise (`0.0.0.0` lets `sam local` containers reach it).
 */
export async function startS3Local(options: {
  directory: string;
  bucketName: string;
  port?: number;
  address?: string;
}): Promise<S3Local> {
  mkdirSync(options.directory, { recursive: true });
  const server = new S3rver({
    address: options.address ?? '127.0.0.1',
    port: options.port ?? 0,
    silent: true,
    directory: options.directory,
    configureBuckets: [{ name: options.bucketName, configs: [CORS] }],
  });
  cacheBucketConfigurations(server);
  const listeners: ((event: S3Event) => void)[] = [];
  // First in the chain, so it sees each request once s3rver has answered it.
  server.middleware.unshift(async (request, next) => {
    await next();
    const event = listeners.length > 0 ? eventOf(request) : undefined;
    if (event) for (const listener of listeners) listener(s3Event(event.bucket, event.key, event.eventName));
  });
  const { port } = await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    onObjectEvent: (listener) => listeners.push(listener),
    stop: () => server.close(),
  };
}
