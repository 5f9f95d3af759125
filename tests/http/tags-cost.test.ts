import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { forEachConcurrently } from '#shared/concurrency';
import { documents, tableName } from '#shared/db/client';
import { FILE_PREFIX } from '#shared/db/keys/files';
import { fromFileItem, toFileItem } from '#shared/files/record/items';
import { membershipItem } from '#shared/files/record/memberships';
import { emptyStats, fillLibrary } from '../../bench/library.ts';
import { call } from '../support/client.ts';
import { consumedUnits, recordSdkCalls } from '../support/sdk-calls.ts';
import { partitionItems } from '../support/snapshot.ts';
import { signedInUser } from '../support/users.ts';

/**
 * What a page of a listing by tag costs (docs/tags.md): the same reads as the library's page in the
 * same order, whatever the library's size. A library of `TAGS_COST_FILES` files (10,000 here; the
 * figures in docs/tags.md were taken at 100,000), a tenth of them tagged. Every read's capacity is
 * DynamoDB Local's ReturnConsumedCapacity.
 */

const FILES = Number(process.env.TAGS_COST_FILES ?? 10_000);
const recorder = recordSdkCalls();

let owner: Awaited<ReturnType<typeof signedInUser>>;
let tagId: string;

beforeAll(async () => {
  owner = await signedInUser();
  await fillLibrary(owner.id, 0, FILES, emptyStats());
  tagId = (
    await call('POST', '/api/user/tags', { token: owner.token, json: { name: 'Cost', color: '#123' } })
  ).body.id as string;
  // Every tenth file tagged, as PATCH {tags} leaves it: the file's `tags` and its membership.
  const tagged = (await partitionItems(owner.id))
    .filter((item) => String(item.sk).startsWith(FILE_PREFIX))
    .filter((_, index) => index % 10 === 0)
    .map((item) => ({ ...fromFileItem(item), tags: [tagId] }));
  const puts = tagged.flatMap((file) => [toFileItem(owner.id, file), membershipItem(owner.id, tagId, file)]);
  const batches: Record<string, unknown>[][] = [];
  for (let offset = 0; offset < puts.length; offset += 25) batches.push(puts.slice(offset, offset + 25));
  await forEachConcurrently(batches, 8, async (batch) => {
    let pending: unknown[] = batch.map((Item) => ({ PutRequest: { Item } }));
    while (pending.length) {
      const result = await documents.send(
        new BatchWriteCommand({ RequestItems: { [tableName]: pending as never } }),
      );
      pending = result.UnprocessedItems?.[tableName] ?? [];
    }
  });
}, 1_800_000);

/** One listing's reads: the commands and their read units. */
async function measured(query: Record<string, string>) {
  recorder.reset();
  const response = await call('GET', `/api/user/files?${new URLSearchParams(query)}`, { token: owner.token });
  expect(response.status).toBe(200);
  const calls = recorder.calls.filter(({ command }) => /^(Get|BatchGet|Query)/.test(command));
  return { files: response.body.page.length as number, units: consumedUnits(calls), calls };
}

/**
 * A page in an index order, and a tag's page in any order but the sparse ones: the tag read (0.5),
 * the expired files' check, the page's index entries (or memberships) and one BatchGet of the 15
 * files (0.5 each), the tags lookup for the chips (0.5). No read of it grows with the library.
 */
test.each([
  ['createdAt', '1', 12],
  ['originalName', '1', 12],
  ['size', '1', 12],
  ['originalName', '20', 20],
])(
  'sortBy=%s page %s: a tag page reads what a library page reads, keyed (at most %s RCU)',
  async (sortBy, page, most) => {
    const common = { sortBy, order: 'asc', perpage: '15', page };
    const library = await measured(common);
    const byTag = await measured({ ...common, searchField: 'tags', searchQuery: tagId });
    console.info(
      `${FILES} files, sortBy=${sortBy} page ${page}: library ${library.units} RCU (${library.calls.length} calls), tag ${byTag.units} RCU (${byTag.calls.map(({ command }) => command).join(' ')})`,
    );
    expect([library.files, byTag.files]).toEqual([15, 15]);
    // One call more than the library's: the tag's own read (the library reads its counters instead,
    // the tag page the tags lookup for the chips).
    expect(
      byTag.calls.map(({ command }) => command).filter((command) => command.startsWith('BatchGet')),
    ).toHaveLength(1);
    expect(byTag.calls.length).toBeLessThanOrEqual(library.calls.length + 1);
    expect(byTag.units).toBeLessThanOrEqual(most as number);
  },
);

/**
 * The sparse orders (views, favourite, expiry) walk the files without an entry in the base table with
 * a filter, the library's way (docs/scale.md): a tag's page reads its memberships so, never more than
 * the library's page reads of the whole library.
 */
test('sortBy=views: a tag page reads no more than the library page', async () => {
  const common = { sortBy: 'views', order: 'asc', perpage: '15' };
  const library = await measured(common);
  const byTag = await measured({ ...common, searchField: 'tags', searchQuery: tagId });
  console.info(`${FILES} files, sortBy=views page 1: library ${library.units} RCU, tag ${byTag.units} RCU`);
  expect(byTag.units).toBeLessThanOrEqual(library.units);
});
