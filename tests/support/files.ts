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

/** The small files `uploadMany` makes, by kind: the n-th file's part. */
const MANY_FILES = {
  image: (n: number): PartSpec => ({ fileName: `b-${n}.png`, type: 'image/png', content: 'x'.repeat(10) }),
  text: (n: number): PartSpec => ({ fileName: `t-${n}.txt`, type: 'text/plain', content: `file ${n}` }),
};

/** Uploads `count` small files of one kind, 30 a request; answers their ids in upload order. */
export async function uploadMany(
  token: string,
  count: number,
  kind: keyof typeof MANY_FILES,
): Promise<string[]> {
  const ids: string[] = [];
  for (let offset = 0; offset < count; offset += 30) {
    const parts = Array.from({ length: Math.min(30, count - offset) }, (_, index) =>
      MANY_FILES[kind](offset + index),
    );
    ids.push(...(await upload(token, parts)).map((file) => file.id));
  }
  return ids;
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
 * Follows a download link (an upload's absolute URL or a File's path): the bytes the service answers
 * itself (small files), or its redirect, then the presigned URL on the local S3 server. `response`
 * is the answer with the bytes either way, as a browser would read it.
 */
export async function download(url: string) {
  const link = new URL(url, 'https://localhost');
  const redirect = await call('GET', `${link.pathname}${link.search}`);
  if (redirect.status === 200) {
    const response = new Response(new Uint8Array(redirect.bytes), { headers: redirect.headers });
    return { status: 200, bytes: redirect.bytes, redirect, response };
  }
  if (redirect.status !== 302) return { status: redirect.status, bytes: undefined, redirect };
  const response = await fetch(redirect.headers.location as string);
  return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()), redirect, response };
}

/**
 * Moves a file's `deletesAt` into the past through the store, as time passing would: the API refuses
 * a past expiry (a 400), so tests that need an expired file write it here.
 */
export async function expireFile(userId: string, fileId: string, deletesAt = '2020-01-01T00:00:00.000Z') {
  const { updateFile } = await import('#shared/files/record/changes');
  return updateFile(userId, fileId, { deletesAt });
}
