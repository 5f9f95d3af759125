import { randomBytes } from 'node:crypto';
import { BatchWriteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { forEachConcurrently } from '#shared/concurrency';
import { documents, tableName } from '#shared/db/client';
import { fileStatsKey } from '#shared/db/keys/files';
import { type FileRecord, type FileStats, isMedia } from '#shared/files/model';
import { newFileId } from '#shared/files/names';
import { toFileItem } from '#shared/files/record/items';
import { POPULAR_AFTER } from '#shared/files/serve/popular-views';

/**
 * A user's library of files written straight to the table (BatchWrite of the items the service
 * writes, counters consistent): untimed setup for `npm run bench:files` and `npm run simulate`.
 * Import it after the environment names the table (the service's modules read it when imported).
 */

const WORDS = [
  'holiday',
  'invoice',
  'Screenshot',
  'meme',
  'report',
  'Zebra',
  'draft',
  'photo',
  'clip',
  'notes',
];
const TYPES = ['image/png', 'image/jpeg', 'video/mp4', 'text/plain', 'application/pdf', 'application/zip'];
const START = Date.parse('2024-01-01T00:00:00Z');

export const emptyStats = (): FileStats => ({ files: 0, bytes: 0, favorites: 0, media: 0, favoriteMedia: 0 });

/** File number `index` of a library: a minute apart, a tenth favourites, a fifth with an expiry. */
function fakeFile(userId: string, index: number): FileRecord {
  const created = START + index * 60_000 + Math.floor(Math.random() * 1000);
  const id = newFileId(created);
  const word = WORDS[index % WORDS.length] as string;
  const type = TYPES[(index * 7) % TYPES.length] as string;
  return {
    id,
    name: `${randomBytes(5).toString('hex')}.${type.split('/')[1]}`,
    originalName: `${word}-${index}.${type.split('/')[1]}`,
    size: 1000 + ((index * 7919) % 5_000_000),
    type,
    // Below POPULAR_AFTER: an item written here has no view counters, and a listing reads a popular
    // file's (eleven items, tests/http/file-views.test.ts): these figures are the indexes'.
    views: (index * 31) % POPULAR_AFTER,
    maxViews: index % 7 === 0 ? 1000 : null,
    favorite: index % 10 === 0,
    createdAt: new Date(created).toISOString(),
    updatedAt: new Date(created + ((index * 13) % 100_000) * 1000).toISOString(),
    // Far enough out that none has expired (expired files are left out of listings).
    deletesAt: index % 5 === 0 ? new Date(created + 20 * 365 * 86_400_000).toISOString() : null,
    downloadAsOriginalName: false,
    passwordHash: null,
    objectKey: `files/${userId}/${id}`,
    version: 1,
    thumbnail: null,
    folderId: null,
    tags: [],
  };
}

/**
 * Writes files `from`…`to - 1` of `userId`'s library (25 a batch, 8 batches at once), adds them to
 * `stats` and writes the counters. No name claims: these files are listed and searched, not
 * downloaded.
 */
export async function fillLibrary(userId: string, from: number, to: number, stats: FileStats): Promise<void> {
  const batches: FileRecord[][] = [];
  for (let index = from; index < to; index += 25) {
    batches.push(
      Array.from({ length: Math.min(25, to - index) }, (_, offset) => fakeFile(userId, index + offset)),
    );
  }
  await forEachConcurrently(batches, 8, async (batch) => {
    let pending: unknown[] = batch.map((file) => ({ PutRequest: { Item: toFileItem(userId, file) } }));
    while (pending.length) {
      const result = await documents.send(
        new BatchWriteCommand({ RequestItems: { [tableName]: pending as never } }),
      );
      pending = result.UnprocessedItems?.[tableName] ?? [];
    }
    for (const file of batch) {
      const media = isMedia(file.type);
      stats.files++;
      stats.bytes += file.size;
      if (file.favorite) stats.favorites++;
      if (media) stats.media++;
      if (media && file.favorite) stats.favoriteMedia++;
    }
  });
  await documents.send(new PutCommand({ TableName: tableName, Item: { ...fileStatsKey(userId), ...stats } }));
}
