import { jest } from '@jest/globals';
import { FILE_PREFIX } from '#shared/db/keys/files';
import { emptyStats, fillLibrary } from '../../bench/library.ts';
import { call } from '../support/client.ts';
import { recordSdkCalls } from '../support/sdk-calls.ts';
import { partitionItems } from '../support/snapshot.ts';
import { signedInUser } from '../support/users.ts';

/**
 * What a page of `GET /api/user/files?folder=` costs (docs/folders.md): one Query of the folder's
 * partition and one BatchGetItem of the page's files, the same read units in a library of 30 files
 * as in one of 3,000 with 1,000 in the folder (moved there by one bulk PATCH of 1,000 ids).
 */

jest.setTimeout(600_000);

const recorder = recordSdkCalls();

async function libraryWithFolder(files: number, inFolder: number) {
  const owner = await signedInUser();
  await fillLibrary(owner.id, 0, files, emptyStats());
  const ids = (await partitionItems(owner.id))
    .filter((item) => String(item.sk).startsWith(FILE_PREFIX))
    .map((item) => String(item.id))
    .slice(0, inFolder);
  const folder = (await call('POST', '/api/user/folders', { token: owner.token, json: { name: 'Big' } }))
    .body;
  const moved = await call('PATCH', '/api/user/files/transaction', {
    token: owner.token,
    json: { files: ids, folder: folder.id },
  });
  expect([moved.status, moved.body.count]).toEqual([200, inFolder]);
  return { owner, folder };
}

/** The read units of the listing's own reads (the caller's item and the folder's excepted). */
async function pageCost(library: Awaited<ReturnType<typeof libraryWithFolder>>, query: string) {
  recorder.reset();
  const response = await call('GET', `/api/user/files?folder=${library.folder.id}&perpage=24${query}`, {
    token: library.owner.token,
  });
  expect(response.status).toBe(200);
  expect(response.body.page).toHaveLength(24);
  const reads = recorder.calls.filter((recorded) =>
    ['QueryCommand', 'BatchGetItemCommand'].includes(recorded.command),
  );
  expect(reads.map((recorded) => recorded.command)).toEqual(['QueryCommand', 'BatchGetItemCommand']);
  return reads.map((recorded) => {
    const capacity = recorded.consumedCapacity as { CapacityUnits?: number }[] | { CapacityUnits?: number };
    return (Array.isArray(capacity) ? capacity : [capacity]).reduce(
      (sum, unit) => sum + (unit.CapacityUnits ?? 0),
      0,
    );
  });
}

test('a page of a folder of 1,000 in a library of 3,000 costs what a page of a folder of 30 does', async () => {
  const small = await libraryWithFolder(30, 30);
  const large = await libraryWithFolder(3000, 1000);
  const smallCost = await pageCost(small, '');
  const largeCost = await pageCost(large, '');
  expect(largeCost).toEqual(smallCost);
  // One half unit for the 24 member keys (well under 4 KB), one half unit per file item.
  expect(largeCost).toEqual([0.5, 12]);
  expect(
    (await call('GET', `/api/user/files?folder=${large.folder.id}`, { token: large.owner.token })).body.total,
  ).toBe(1000);
});
