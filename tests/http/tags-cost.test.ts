import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { forEachConcurrently } from '#shared/concurrency';
import { documents, tableName } from '#shared/db/client';
import { FILE_PREFIX } from '#shared/db/keys/files';
import type { FileRecord } from '#shared/files/model';
import { fromFileItem, toFileItem } from '#shared/files/record/items';
import { membershipItem } from '#shared/files/record/memberships';
import { emptyStats, fillLibrary } from '../../bench/library.ts';
import { call } from '../support/client.ts';
import { everyOrder, expectedOrder, pageMost } from '../support/listing-order.ts';
import { consumedUnits, recordSdkCalls } from '../support/sdk-calls.ts';
import { partitionItems } from '../support/snapshot.ts';
import { signedInUser } from '../support/users.ts';

/**
 * What a page of a listing by tag costs (docs/tags.md): the same reads as the library's page in the
 * same order, whatever the library's size. A library of `TAGS_COST_FILES` files (3,000 here, enough for page 20 of the tag; the
 * figures in docs/tags.md were taken at 100,000), a seventh of them tagged (bench/library.ts's
 * tenth favourites, fifth expiring and hundredth never viewed spread over them). Every read's
 * capacity is DynamoDB Local's ReturnConsumedCapacity.
 */

const FILES = Number(process.env.TAGS_COST_FILES ?? 3_000);
const recorder = recordSdkCalls();

let owner: Awaited<ReturnType<typeof signedInUser>>;
let tagId: string;
let library: FileRecord[];
let tagged: FileRecord[];

beforeAll(async () => {
  owner = await signedInUser();
  await fillLibrary(owner.id, 0, FILES, emptyStats());
  tagId = (
    await call('POST', '/api/user/tags', { token: owner.token, json: { name: 'Cost', color: '#123' } })
  ).body.id as string;
  // Every seventh file tagged, as PATCH {tags} leaves it: the file's `tags` and its membership.
  library = (await partitionItems(owner.id))
    .filter((item) => String(item.sk).startsWith(FILE_PREFIX))
    .map(fromFileItem);
  tagged = library.filter((_, index) => index % 7 === 0).map((file) => ({ ...file, tags: [tagId] }));
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
}, 3_600_000);

/** One listing's reads: the page, its read units and calls, and how many calls had a filter. */
async function measured(query: Record<string, string>) {
  recorder.reset();
  const response = await call('GET', `/api/user/files?${new URLSearchParams(query)}`, { token: owner.token });
  expect(response.status).toBe(200);
  const calls = recorder.calls.filter(({ command }) => /^(Get|BatchGet|Query)/.test(command));
  return {
    ids: (response.body.page as { id: string }[]).map((file) => file.id),
    units: consumedUnits(calls),
    calls,
    filtered: calls.filter(({ input }) => input.FilterExpression !== undefined).length,
  };
}

/**
 * Every order, both directions, the first page and page 20: a tag's page reads the tag (0.5), the
 * expired files' check, the page's index entries (or memberships) and one BatchGet of the 15 files
 * (0.5 each), the tags lookup for the chips (0.5), within `pageMost` whatever the library's size and
 * with no filter; the files at a default (no views, not a favourite, no expiry) come from the same
 * index as the others, in their place. The library's page, the same way.
 */
test.each(everyOrder('20'))(
  'sortBy=%s order=%s page %s: a tag page reads what a library page reads, keyed',
  async (sortBy, order, page) => {
    const common = { sortBy, order, perpage: '15', page };
    const fromLibrary = await measured(common);
    const byTag = await measured({ ...common, searchField: 'tags', searchQuery: tagId });
    console.info(
      `${FILES} files, sortBy=${sortBy} order=${order} page ${page}: library ${fromLibrary.units} RCU (${fromLibrary.calls.length} calls), tag ${byTag.units} RCU (${byTag.calls.map(({ command }) => command).join(' ')})`,
    );
    const skipped = (Number(page) - 1) * 15;
    expect(fromLibrary.ids).toEqual(expectedOrder(library, sortBy, order).slice(skipped, skipped + 15));
    expect(byTag.ids).toEqual(expectedOrder(tagged, sortBy, order).slice(skipped, skipped + 15));
    // The caller, the tag, the expired files, the entries (a numbered page's skip before them), one
    // BatchGet of the page, the tags lookup for the chips.
    expect(
      byTag.calls.map(({ command }) => command).filter((command) => command.startsWith('BatchGet')),
    ).toHaveLength(1);
    expect(byTag.calls.length).toBeLessThanOrEqual(page === '1' ? 6 : 7);
    for (const found of [fromLibrary, byTag]) {
      expect(found.units).toBeLessThanOrEqual(pageMost(Number(page), 15));
      expect(found.filtered).toBe(0);
    }
  },
);
