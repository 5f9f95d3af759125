import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * A file's bytes to the target's presigned S3 PUT, streamed from their source with the exact
 * Content-Length (S3 refuses chunked uploads to a presigned URL): never whole in memory, any size.
 * `onBytes` counts them as they leave, for the progress display.
 */
export interface PresignedUpload {
  url: string;
  method: string;
  headers: Record<string, string>;
}

export function putBytes(
  upload: PresignedUpload,
  source: Readable,
  size: number,
  onBytes: (count: number) => void,
): Promise<void> {
  const url = new URL(upload.url);
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const request = send(url, {
      method: upload.method,
      headers: { ...upload.headers, 'content-length': String(size) },
    });
    request.once('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.once('end', () => {
        const status = response.statusCode ?? 0;
        if (status >= 200 && status < 300) resolve();
        else
          reject(
            new Error(
              `the storage refused the bytes: ${status} ${Buffer.concat(chunks).toString().slice(0, 200)}`,
            ),
          );
      });
    });
    request.once('error', reject);
    source.on('data', (chunk: Buffer) => onBytes(chunk.length));
    pipeline(source, request).catch(reject);
  });
}
