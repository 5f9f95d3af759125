import { mkdirSync } from 'node:fs';
import type { S3Event } from 'aws-lambda';
import S3rver from 's3rver';

/** S3 URL-encodes keys in notifications (spaces as `+`, slashes kept); s3rver sends them raw. */
const asS3Sends = (event: S3Event): S3Event => ({
  Records: event.Records.map((record) => ({
    ...record,
    s3: {
      ...record.s3,
      object: {
        ...record.s3.object,
        key: encodeURIComponent(record.s3.object.key).replaceAll('%2F', '/').replaceAll('%20', '+'),
      },
    },
  })),
});

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
  const { port } = await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    onObjectEvent: (listener) => server.on('event', (event) => listener(asS3Sends(event))),
    stop: () => server.close(),
  };
}
