import { call } from './client.ts';
import { multipart, type PartSpec } from './multipart.ts';

/** Uploads files through `POST /api/upload` and returns the response's `files`. */
export async function upload(token: string, parts: PartSpec[], headers: Record<string, string> = {}) {
  const { body, contentType } = multipart(parts);
  const response = await call('POST', '/api/upload', {
    token,
    raw: body,
    headers: { 'content-type': contentType, ...headers },
  });
  expect(response.status).toBe(200);
  return response.body.files as { id: string; name: string; type: string; url: string }[];
}

export function uploadRequest(token: string, parts: PartSpec[], headers: Record<string, string> = {}) {
  const { body, contentType } = multipart(parts);
  return call('POST', '/api/upload', {
    token,
    raw: body,
    headers: { 'content-type': contentType, ...headers },
  });
}

/**
 * Follows a download link (an upload's absolute URL or a File's path): the service's redirect, then
 * the presigned URL on the local S3 server.
 */
export async function download(url: string) {
  const link = new URL(url, 'https://localhost');
  const redirect = await call('GET', `${link.pathname}${link.search}`);
  if (redirect.status !== 302) return { status: redirect.status, bytes: undefined, redirect };
  const response = await fetch(redirect.headers.location as string);
  return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()), redirect, response };
}
