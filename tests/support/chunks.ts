import { createHash, randomBytes } from 'node:crypto';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { documents, tableName } from '#shared/db/client';
import { fileStatsKey } from '#shared/db/keys/files';
import { bucketName, s3 } from '#shared/s3/client';
import { call } from './client.ts';
import { multipart } from './multipart.ts';
import type { signedInUser } from './users.ts';

type Owner = Awaited<ReturnType<typeof signedInUser>>;

export interface ChunkSpec {
  identifier?: string;
  start: number;
  bytes: Buffer;
  total: number;
  last?: boolean;
  /** Zipline's uploader sends the range's end exclusive; HTTP clients inclusive. */
  inclusive?: boolean;
  headers?: Record<string, string>;
}

/** Sends one chunk as Zipline's uploader does: a multipart body with the chunk, the range headers. */
export function sendChunk(owner: Owner, spec: ChunkSpec) {
  const { body, contentType } = multipart([
    { fileName: 'blob', type: 'application/octet-stream', content: spec.bytes },
  ]);
  const end = spec.start + spec.bytes.length - (spec.inclusive ? 1 : 0);
  return call('POST', '/api/upload', {
    token: owner.token,
    raw: body,
    headers: {
      'content-type': contentType,
      'content-range': `bytes ${spec.start}-${end}/${spec.total}`,
      'x-zipline-p-filename': 'movie.mp4',
      'x-zipline-p-content-type': 'video/mp4',
      'x-zipline-p-content-length': String(spec.total),
      'x-zipline-p-lastchunk': String(spec.last ?? spec.start + spec.bytes.length === spec.total),
      ...(spec.identifier ? { 'x-zipline-p-identifier': spec.identifier } : {}),
      ...spec.headers,
    },
  });
}

/** Sends a whole file in chunks of `size`, in order; answers every response. */
export async function sendAll(
  owner: Owner,
  file: Buffer,
  size: number,
  identifier: string,
  inclusive = false,
) {
  const responses = [];
  for (let start = 0; start < file.length; start += size) {
    const bytes = file.subarray(start, Math.min(start + size, file.length));
    responses.push(await sendChunk(owner, { identifier, start, bytes, total: file.length, inclusive }));
  }
  return responses;
}

/** SHA-256 of a download's bytes (none: of nothing), to compare uploads with what comes back. */
export const sha = (bytes: Buffer | undefined) =>
  createHash('sha256')
    .update(bytes ?? Buffer.alloc(0))
    .digest('hex');

/** A fresh chunked upload identifier, as clients make them up. */
export const identifier = () => randomBytes(4).toString('hex');

/** The user's file counters item, read consistently. */
export const counters = async (userId: string) =>
  (
    await documents.send(
      new GetCommand({ TableName: tableName, Key: fileStatsKey(userId), ConsistentRead: true }),
    )
  ).Item;

/** The bucket's keys under a prefix (one listing page: the tests stay under 1,000 objects). */
export async function keysUnder(prefix: string) {
  const listing = await s3.send(new ListObjectsV2Command({ Bucket: bucketName, Prefix: prefix }));
  return (listing.Contents ?? []).map((object) => object.Key as string);
}

/** The chunk of `file` from `start` to `end` (exclusive) in the upload `id`. */
export const chunksOf =
  (file: Buffer, id: string) =>
  (start: number, end: number): ChunkSpec => ({
    identifier: id,
    start,
    bytes: file.subarray(start, end),
    total: file.length,
  });
