import { paginateScan, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documents, tableName } from '#shared/db/client';
import { DEFAULT_SORT_VALUES, SORT_INDEXES, sortKeyOf } from '#shared/files/record/indexing';
import { localClient } from '../../infra/local/dynamodb.ts';
import { backfillDefaultOrderEntries } from '../../infra/table-upgrade.ts';
import { call } from '../support/client.ts';
import { download, upload } from '../support/files.ts';
import { signedInUser } from '../support/users.ts';

/**
 * Every file has an entry in every order's index, the orders most files keep at their default
 * (deletesAt, views, favorite) included. The previous version wrote those three only for a file off
 * the default (sparse), and for its tag memberships and folder member the same; `npm run
 * upgrade:data` gives the others theirs. After it, every listing in these orders holds every file
 * once, in order, from the index alone.
 */
const DEFAULTED = Object.keys(DEFAULT_SORT_VALUES) as (keyof typeof DEFAULT_SORT_VALUES)[];

interface Listed {
  id: string;
  views: number;
  favorite: boolean;
  deletesAt: string | null;
}

/** The order the service promises: no deletesAt last in ascending order, false/0 first; then id. */
function expectedOrder(files: Listed[], field: (typeof DEFAULTED)[number], order: 'asc' | 'desc') {
  const value = (file: Listed) =>
    field === 'deletesAt' ? (file.deletesAt ?? '~') : field === 'views' ? file.views : Number(file.favorite);
  const direction = order === 'asc' ? 1 : -1;
  return [...files]
    .sort((a, b) => {
      const [x, y] = [value(a), value(b)];
      if (x !== y) return x < y ? -direction : direction;
      return a.id < b.id ? -direction : direction;
    })
    .map((file) => file.id);
}

/** Every file of a listing, page by page through cursors (3 a page). */
async function listAll(token: string, scope: string, sortBy: string, order: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const response = await call(
      'GET',
      `/api/user/files?${scope}sortBy=${sortBy}&order=${order}&perpage=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      { token },
    );
    expect(response.status).toBe(200);
    ids.push(...response.body.page.map((file: Listed) => file.id));
    cursor = response.headers['x-next-cursor'];
  } while (cursor);
  return ids;
}

/** The items in the file indexes (files, memberships, folder members) of this test's table. */
async function indexedItems() {
  const items: Record<string, unknown>[] = [];
  for await (const page of paginateScan(
    { client: documents },
    { TableName: tableName, FilterExpression: 'attribute_exists(gsi2pk)' },
  )) {
    items.push(...(page.Items ?? []));
  }
  return items;
}

test('the entries the previous version left out are written; every listing is whole and ordered after', async () => {
  const user = await signedInUser();
  const json = { token: user.token };
  const folderId = (await call('POST', '/api/user/folders', { ...json, json: { name: 'Kept' } })).body.id;
  const tagId = (await call('POST', '/api/user/tags', { ...json, json: { name: 'Kept', color: '#123' } }))
    .body.id;
  const png = (n: number) => ({ fileName: `f${n}.png`, type: 'image/png', content: Buffer.alloc(10 + n) });
  const into = { 'x-zipline-folder': folderId };
  const plain = await upload(user.token, [0, 1, 2, 3, 4].map(png), into);
  const expiring = await upload(user.token, [5, 6].map(png), { ...into, 'x-zipline-deletes-at': '2d' });
  await download(plain[1]?.url as string);
  await download(expiring[0]?.url as string);
  for (const file of [...plain, ...expiring]) {
    const tagged = await call('PATCH', `/api/user/files/${file.id}`, { ...json, json: { tags: [tagId] } });
    expect(tagged.status).toBe(200);
  }
  for (const file of [plain[2], expiring[1]]) {
    await call('PATCH', `/api/user/files/${file?.id}`, { ...json, json: { favorite: true } });
  }
  const all = (await call('GET', '/api/user/files?perpage=100', json)).body.page as Listed[];
  expect(all).toHaveLength(7);

  // As the previous version left them: no entry in these orders for an item at the default.
  let sparse = 0;
  for (const item of await indexedItems()) {
    const names: Record<string, string> = {};
    DEFAULTED.forEach((field, at) => {
      const sk = `${SORT_INDEXES[field].index}sk`;
      if (String(item[sk]).startsWith(sortKeyOf(DEFAULT_SORT_VALUES[field], ''))) {
        Object.assign(names, { [`#pk${at}`]: `${SORT_INDEXES[field].index}pk`, [`#sk${at}`]: sk });
      }
    });
    if (Object.keys(names).length === 0) continue;
    sparse++;
    await documents.send(
      new UpdateCommand({
        TableName: tableName,
        Key: { pk: item.pk, sk: item.sk },
        UpdateExpression: `REMOVE ${Object.keys(names).join(', ')}`,
        ExpressionAttributeNames: names,
      }),
    );
  }
  // 7 files, 7 memberships, 7 folder members: every one has a default in one order at least.
  expect(sparse).toBe(21);
  // Not upgraded yet: the views order lists the viewed files only.
  expect(await listAll(user.token, '', 'views', 'asc')).toHaveLength(2);

  const client = localClient(process.env.DYNAMODB_ENDPOINT as string);
  try {
    expect(await backfillDefaultOrderEntries(client, tableName)).toBe(21);
    expect(await backfillDefaultOrderEntries(client, tableName)).toBe(0);
  } finally {
    client.destroy();
  }
  for (const scope of ['', `folder=${folderId}&`, `searchField=tags&searchQuery=${tagId}&`]) {
    for (const field of DEFAULTED) {
      for (const order of ['asc', 'desc'] as const) {
        expect(await listAll(user.token, scope, field, order)).toEqual(expectedOrder(all, field, order));
        const page2 = await call(
          'GET',
          `/api/user/files?${scope}sortBy=${field}&order=${order}&perpage=4&page=2`,
          json,
        );
        expect(page2.body.page.map((file: Listed) => file.id)).toEqual(
          expectedOrder(all, field, order).slice(4, 8),
        );
      }
    }
  }
});
