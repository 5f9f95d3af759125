import { writeFileSync } from 'node:fs';
import { BatchWriteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { jest } from '@jest/globals';
import { forEachConcurrently } from '#shared/concurrency';
import { documents, tableName } from '#shared/db/client';
import { fileStatsKey } from '#shared/db/keys/files';
import { folderKey } from '#shared/db/keys/folders';
import { type FileRecord, isMedia } from '#shared/files/model';
import { newFileId } from '#shared/files/names';
import { folderMemberItem } from '#shared/files/record/folder-membership';
import { toFileItem } from '#shared/files/record/items';
import { membershipItem } from '#shared/files/record/memberships';
import { POPULAR_AFTER } from '#shared/files/serve/popular-views';
import { call } from '../support/client.ts';
import { consumedUnits, recordSdkCalls } from '../support/sdk-calls.ts';
import { signedInUser } from '../support/users.ts';

/**
 * What a page of the three listings costs (docs/folders.md): the library, a folder
 * (`?folder=<id>`) and a tag (`searchField=tags`), in the same orders, over a library of
 * `LISTING_COST_FILES` files (2,000 here; the figures in docs/folders.md were taken at 100,000) with
 * every tenth file in the folder and tagged, as a move and a `PATCH {tags}` leave them. Every read's
 * capacity is DynamoDB Local's ReturnConsumedCapacity. `LISTING_COST_REPORT=<path>` writes the
 * figures as JSON.
 */

jest.setTimeout(3_600_000);

const FILES = Number(process.env.LISTING_COST_FILES ?? 2_000);
/** A deep page: half-way through the folder's (and the tag's) tenth of the library, 15 a page. */
const DEEP = String(Math.floor(FILES / 300));
const recorder = recordSdkCalls();

let owner: Awaited<ReturnType<typeof signedInUser>>;
let folderId: string;
let tagId: string;
let grouped = 0;
const figures: Record<string, unknown>[] = [];

/** File `index` of the library: a minute apart, sizes, types, names and views spread, none expiring. */
function libraryFile(index: number): FileRecord {
  const created = Date.parse('2024-01-01T00:00:00Z') + index * 60_000;
  const type = TYPES[(index * 7) % TYPES.length] as string;
  const id = newFileId(created);
  return {
    id,
    name: `${id.slice(-10)}.${type.split('/')[1]}`,
    originalName: `${WORDS[index % WORDS.length]}-${index}.${type.split('/')[1]}`,
    size: 1000 + ((index * 7919) % 5_000_000),
    type,
    // Below POPULAR_AFTER: an item written here has no view counters, and a listing reads a popular
    // file's (eleven items, tests/http/file-views.test.ts): these figures are the indexes'.
    views: (index * 31) % POPULAR_AFTER,
    maxViews: null,
    favorite: index % 10 === 3,
    createdAt: new Date(created).toISOString(),
    updatedAt: new Date(created + ((index * 13) % 100_000) * 1000).toISOString(),
    deletesAt: null,
    downloadAsOriginalName: false,
    passwordHash: null,
    objectKey: `files/${owner.id}/${id}`,
    version: 1,
    thumbnail: null,
    folderId: null,
    tags: [],
  };
}
const WORDS = ['holiday', 'invoice', 'Screenshot', 'meme', 'report', 'Zebra', 'draft', 'photo'];
const TYPES = ['image/png', 'image/jpeg', 'video/mp4', 'text/plain', 'application/pdf', 'application/zip'];

/** Puts items 25 a batch, a few batches at once, each batch again until DynamoDB Local takes it. */
async function batchWrite(items: Record<string, unknown>[]) {
  const batches: Record<string, unknown>[][] = [];
  for (let offset = 0; offset < items.length; offset += 25) batches.push(items.slice(offset, offset + 25));
  await forEachConcurrently(batches, 4, async (batch) => {
    let pending: unknown[] = batch.map((Item) => ({ PutRequest: { Item } }));
    while (pending.length) {
      const result = await documents
        .send(new BatchWriteCommand({ RequestItems: { [tableName]: pending as never } }))
        // DynamoDB Local's lock timeout on a loaded machine (a 500 it says AWS would not give).
        .catch((error: Error) => (error.name === 'InternalServerError' ? undefined : Promise.reject(error)));
      if (result) pending = result.UnprocessedItems?.[tableName] ?? [];
    }
  });
}

beforeAll(async () => {
  owner = await signedInUser();
  const json = { token: owner.token };
  folderId = (await call('POST', '/api/user/folders', { ...json, json: { name: 'Tenth' } })).body
    .id as string;
  tagId = (await call('POST', '/api/user/tags', { ...json, json: { name: 'Tenth', color: '#123' } })).body
    .id as string;
  // Every tenth file in the folder and tagged, as a move and a PATCH {tags} leave it: the file item,
  // its member item and its membership; the counters as the uploads would have left them.
  const stats = { files: 0, bytes: 0, favorites: 0, media: 0, favoriteMedia: 0 };
  for (let from = 0; from < FILES; from += 10_000) {
    const items: Record<string, unknown>[] = [];
    for (let index = from; index < Math.min(FILES, from + 10_000); index++) {
      const plain = libraryFile(index);
      const file = index % 10 === 0 ? { ...plain, folderId, tags: [tagId] } : plain;
      items.push(toFileItem(owner.id, file));
      if (index % 10 === 0) {
        items.push(folderMemberItem(owner.id, folderId, file), membershipItem(owner.id, tagId, file));
        grouped++;
      }
      stats.files++;
      stats.bytes += file.size;
      stats.favorites += file.favorite ? 1 : 0;
      stats.media += isMedia(file.type) ? 1 : 0;
      stats.favoriteMedia += file.favorite && isMedia(file.type) ? 1 : 0;
    }
    await batchWrite(items);
    console.info(`${Math.min(FILES, from + 10_000)} files written`);
  }
  await documents.send(
    new PutCommand({ TableName: tableName, Item: { ...fileStatsKey(owner.id), ...stats } }),
  );
  await documents.send(
    new UpdateCommand({
      TableName: tableName,
      Key: folderKey(owner.id, folderId),
      UpdateExpression: 'SET files = :count',
      ExpressionAttributeValues: { ':count': grouped },
    }),
  );
});

afterAll(() => {
  if (process.env.LISTING_COST_REPORT) {
    writeFileSync(
      process.env.LISTING_COST_REPORT,
      JSON.stringify({ files: FILES, grouped, figures }, null, 2),
    );
  }
});

/** One listing's reads: the commands and their read units. */
async function measured(query: Record<string, string>) {
  recorder.reset();
  const response = await call('GET', `/api/user/files?${new URLSearchParams(query)}`, { token: owner.token });
  expect(response.status).toBe(200);
  const calls = recorder.calls.filter(({ command }) => /^(Get|BatchGet|Query)/.test(command));
  return {
    files: response.body.page as { id: string; originalName: string; size: number; views: number }[],
    units: consumedUnits(calls),
    calls: calls.map(({ command, input }) => `${command}${input.IndexName ? `(${input.IndexName})` : ''}`),
  };
}

const listings = () => ({
  library: {},
  folder: { folder: folderId },
  tag: { searchField: 'tags', searchQuery: tagId },
});

/**
 * Every order, first page and a deep page (of 15): the folder's and the tag's page read `perpage` index
 * entries (or member items) of their own partition and one BatchGet of the page's files, never more
 * than a few units beside the library's page, whatever the library's size; and each answer is in
 * the order asked.
 */
test.each([
  ['createdAt', '1'],
  ['createdAt', DEEP],
  ['originalName', '1'],
  ['originalName', DEEP],
  ['size', '1'],
  ['size', DEEP],
  ['type', '1'],
  ['updatedAt', '1'],
  ['name', '1'],
])('sortBy=%s page %s: a folder and a tag page read what a library page reads', async (sortBy, page) => {
  const common = { sortBy, order: 'asc', perpage: '15', page };
  const costs: Record<string, Awaited<ReturnType<typeof measured>>> = {};
  for (const [name, scope] of Object.entries(listings()))
    costs[name] = await measured({ ...common, ...scope });
  const { library, folder, tag } = costs as Record<
    'library' | 'folder' | 'tag',
    Awaited<ReturnType<typeof measured>>
  >;
  figures.push({
    sortBy,
    page,
    library: library.units,
    folder: folder.units,
    tag: tag.units,
    calls: {
      library: library.calls,
      folder: folder.calls,
      tag: tag.calls,
    },
  });
  console.info(
    `${FILES} files, sortBy=${sortBy} page ${page}: library ${library.units}, folder ${folder.units} (${folder.calls.join(' ')}), tag ${tag.units} RCU`,
  );
  expect([library.files.length, folder.files.length, tag.files.length]).toEqual([15, 15, 15]);
  // The folder's files and the tag's are the same files: the same page in the same order.
  expect(folder.files.map((file) => file.id)).toEqual(tag.files.map((file) => file.id));
  for (const found of [folder, tag]) {
    expect(found.calls.filter((command) => command.startsWith('BatchGet'))).toHaveLength(1);
    expect(found.units).toBeLessThanOrEqual(library.units + 12);
  }
});

/** The sparse views order: the files without views read from the folder's own members, never the library. */
test('sortBy=views: a folder page reads no more than the library page', async () => {
  const common = { sortBy: 'views', order: 'asc', perpage: '15' };
  const library = await measured(common);
  const folder = await measured({ ...common, folder: folderId });
  const tag = await measured({ ...common, searchField: 'tags', searchQuery: tagId });
  figures.push({ sortBy: 'views', page: '1', library: library.units, folder: folder.units, tag: tag.units });
  console.info(
    `${FILES} files, sortBy=views page 1: library ${library.units}, folder ${folder.units}, tag ${tag.units} RCU`,
  );
  expect(folder.files.map((file) => file.views)).toEqual(
    [...folder.files.map((file) => file.views)].sort((a, b) => a - b),
  );
  expect(folder.units).toBeLessThanOrEqual(library.units);
});

test('a folder pages by cursor in a sorted order without repeating or skipping a file', async () => {
  const seen: string[] = [];
  let cursor: string | undefined;
  do {
    const response = await call(
      'GET',
      `/api/user/files?folder=${folderId}&sortBy=size&order=desc&perpage=100${cursor ? `&cursor=${cursor}` : ''}`,
      { token: owner.token },
    );
    expect(response.status).toBe(200);
    const sizes = (response.body.page as { size: number }[]).map((file) => file.size);
    expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
    seen.push(...(response.body.page as { id: string }[]).map((file) => file.id));
    cursor = response.headers['x-next-cursor'];
  } while (cursor && seen.length <= grouped);
  expect(seen).toHaveLength(grouped);
  expect(new Set(seen).size).toBe(grouped);
});
