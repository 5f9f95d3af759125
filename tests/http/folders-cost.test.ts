import { writeFileSync } from 'node:fs';
import { BatchWriteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { jest } from '@jest/globals';
import { forEachConcurrently } from '#shared/concurrency';
import { documents, tableName } from '#shared/db/client';
import { fileStatsKey } from '#shared/db/keys/files';
import { folderKey } from '#shared/db/keys/folders';
import { type FileRecord, isMedia, type SortField } from '#shared/files/model';
import { newFileId } from '#shared/files/names';
import { folderMemberItem } from '#shared/files/record/folder-membership';
import { toFileItem } from '#shared/files/record/items';
import { membershipItem } from '#shared/files/record/memberships';
import { POPULAR_AFTER } from '#shared/files/serve/popular-views';
import { call } from '../support/client.ts';
import { everyOrder, expectedOrder, PAGE_MOST, pageMost } from '../support/listing-order.ts';
import { consumedUnits, recordSdkCalls } from '../support/sdk-calls.ts';
import { signedInUser } from '../support/users.ts';

/**
 * What a page of the three listings costs (docs/folders.md): the library, a folder
 * (`?folder=<id>`) and a tag (`searchField=tags`), in every order, over a library of
 * `LISTING_COST_FILES` files (2,000 here; the figures in docs/folders.md were taken at 100,000) with
 * every tenth file in the folder and tagged, as a move and a `PATCH {tags}` leave them. Every read's
 * capacity is DynamoDB Local's ReturnConsumedCapacity. `LISTING_COST_REPORT=<path>` writes the
 * figures as JSON. Each page is also checked against the order computed here from the files written,
 * and the orders most files leave at their default (views, favorite, deletesAt) are paged through by
 * cursor to the end.
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
/** The files written: the library's, and the folder's (which are also the tag's). */
const library: FileRecord[] = [];
const inFolder: FileRecord[] = [];
const figures: Record<string, unknown>[] = [];

/**
 * File `index` of the library: a minute apart, sizes, types, names and views spread. Few files keep
 * a default where the old sparse indexes read the defaults by filtering the rest out: 1 % never
 * viewed, a third without an expiry (the folder's tenth: a tenth and a third), a seventh favourites.
 */
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
    favorite: index % 7 === 3,
    createdAt: new Date(created).toISOString(),
    updatedAt: new Date(created + ((index * 13) % 100_000) * 1000).toISOString(),
    // Twenty years out, in an order of their own: none has expired (expired files are left out).
    deletesAt:
      index % 3 === 0
        ? null
        : new Date(created + TWENTY_YEARS + ((index * 7919) % 100_000) * 60_000).toISOString(),
    downloadAsOriginalName: false,
    passwordHash: null,
    objectKey: `files/${owner.id}/${id}`,
    version: 1,
    thumbnail: null,
    folderId: null,
    tags: [],
  };
}
const TWENTY_YEARS = 20 * 365 * 86_400_000;
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
      library.push(file);
      if (index % 10 === 0) {
        inFolder.push(file);
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
    filtered: calls.filter(({ input }) => input.FilterExpression !== undefined).length,
  };
}

const listings = () => ({
  library: {},
  folder: { folder: folderId },
  tag: { searchField: 'tags', searchQuery: tagId },
});
type Scope = keyof ReturnType<typeof listings>;

const filesOf = (scope: Scope) => (scope === 'library' ? library : inFolder);

/**
 * Every order, both directions, the first page and a deep one (of 15): each listing reads its own
 * partition's entries, `perpage` of them and one BatchGet of the page's files, so a page costs
 * `pageMost` whatever the library holds, no filter over anything; and each page is the one the
 * order gives, the files at a default (no views, not a favourite, no expiry) in their place.
 */
test.each(everyOrder(DEEP))(
  'sortBy=%s order=%s page %s: every listing reads a page, in order',
  async (sortBy, order, page) => {
    const common = { sortBy, order, perpage: '15', page };
    const costs = {} as Record<Scope, Awaited<ReturnType<typeof measured>>>;
    for (const [name, scope] of Object.entries(listings()) as [Scope, Record<string, string>][])
      costs[name] = await measured({ ...common, ...scope });
    figures.push({
      sortBy,
      order,
      page,
      ...Object.fromEntries(Object.entries(costs).map(([name, cost]) => [name, cost.units])),
      calls: Object.fromEntries(Object.entries(costs).map(([name, cost]) => [name, cost.calls])),
    });
    console.info(
      `${FILES} files, sortBy=${sortBy} order=${order} page ${page}: library ${costs.library.units}, folder ${costs.folder.units} (${costs.folder.calls.join(' ')}), tag ${costs.tag.units} RCU`,
    );
    const skipped = (Number(page) - 1) * 15;
    for (const [name, found] of Object.entries(costs) as [Scope, (typeof costs)[Scope]][]) {
      expect(found.files.map((file) => file.id)).toEqual(
        expectedOrder(filesOf(name), sortBy, order).slice(skipped, skipped + 15),
      );
      expect(found.units).toBeLessThanOrEqual(pageMost(Number(page), 15));
      // Keyed reads only: nothing read to be dropped by a filter.
      expect(found.filtered).toBe(0);
    }
    for (const found of [costs.folder, costs.tag]) {
      expect(found.calls.filter((command) => command.startsWith('BatchGet'))).toHaveLength(1);
    }
  },
);

/** Every file of a listing through its cursors, 100 a page, each page's read units. */
async function everyPage(scope: Record<string, string>, sortBy: string, order: string) {
  const ids: string[] = [];
  let most = 0;
  let cursor: string | undefined;
  do {
    recorder.reset();
    const response = await call(
      'GET',
      `/api/user/files?${new URLSearchParams({ ...scope, sortBy, order, perpage: '100', ...(cursor ? { cursor } : {}) })}`,
      { token: owner.token },
    );
    expect(response.status).toBe(200);
    most = Math.max(most, consumedUnits(recorder.calls));
    ids.push(...(response.body.page as { id: string }[]).map((file) => file.id));
    cursor = response.headers['x-next-cursor'];
  } while (cursor && ids.length <= library.length);
  return { ids, most };
}

/**
 * The orders most files keep at their default, paged by cursor from end to end in both directions:
 * every file once, in order, the defaults where the order puts them (no views and not a favourite
 * first in ascending order, no expiry last), each page of 100 as costly as any other.
 */
test.each([
  ['views', 'asc'],
  ['views', 'desc'],
  ['favorite', 'asc'],
  ['favorite', 'desc'],
  ['deletesAt', 'asc'],
  ['deletesAt', 'desc'],
] as [SortField, 'asc' | 'desc'][])(
  'sortBy=%s order=%s: cursors page through every listing whole',
  async (sortBy, order) => {
    for (const [name, scope] of Object.entries(listings()) as [Scope, Record<string, string>][]) {
      const { ids, most } = await everyPage(scope, sortBy, order);
      expect(ids).toEqual(expectedOrder(filesOf(name), sortBy, order));
      // 100 entries and 100 files of about 600 bytes: a page of 100 costs what 15 cost, times 100/15.
      expect(most).toBeLessThanOrEqual(PAGE_MOST * 7);
      figures.push({ sortBy, order, walk: name, pages: Math.ceil(ids.length / 100), mostPerPage: most });
    }
  },
);

test('a folder pages by cursor in a sorted order without repeating or skipping a file', async () => {
  const { ids } = await everyPage({ folder: folderId }, 'size', 'desc');
  expect(ids).toEqual(expectedOrder(inFolder, 'size', 'desc'));
  expect(new Set(ids).size).toBe(grouped);
});
