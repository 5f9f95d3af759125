import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documents, tableName } from '#shared/db/client';
import { fileKey, filesPartition } from '#shared/db/keys/files';
import { SORT_INDEXES, sortKeyOf } from '#shared/files/record/indexing';
import { localClient } from '../../infra/local/dynamodb.ts';
import { backfillSparseOrderIndexes } from '../../infra/table-upgrade.ts';
import { call } from '../support/client.ts';
import { download, upload } from '../support/files.ts';
import { signedInUser } from '../support/users.ts';

/**
 * The sparse order indexes (deletesAt, views, favorite) hold no entry for a file at the field's
 * default. The previous version wrote one for every file; `npm run upgrade:data` takes those out.
 * Before it has run, and after, every listing in these orders holds every file once, in order.
 */
const SPARSE = ['deletesAt', 'views', 'favorite'] as const;

interface Listed {
  id: string;
  views: number;
  favorite: boolean;
  deletesAt: string | null;
}

/** The order the service promises: no deletesAt last in ascending order, false/0 first; then id. */
function expectedOrder(files: Listed[], field: (typeof SPARSE)[number], order: 'asc' | 'desc') {
  const value = (file: Listed) =>
    field === 'deletesAt' ? (file.deletesAt ?? '~') : field === 'views' ? file.views : Number(file.favorite);
  const direction = order === 'asc' ? 1 : -1;
  return [...files]
    .sort((a, b) => {
      const [x, y] = [value(a), value(b)];
      if (x !== y) return x < y ? -direction : direction;
      return a.id < b.id ? -direction : 1;
    })
    .map((file) => file.id);
}

/** Every file of the listing, page by page through cursors (3 a page: the sources' seams fall inside). */
async function listAll(token: string, sortBy: string, order: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const response = await call(
      'GET',
      `/api/user/files?sortBy=${sortBy}&order=${order}&perpage=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      { token },
    );
    expect(response.status).toBe(200);
    ids.push(...response.body.page.map((file: Listed) => file.id));
    cursor = response.headers['x-next-cursor'];
  } while (cursor);
  return ids;
}

async function expectListedInOrder(token: string, files: Listed[]) {
  for (const field of SPARSE) {
    for (const order of ['asc', 'desc'] as const) {
      expect(await listAll(token, field, order)).toEqual(expectedOrder(files, field, order));
      const page2 = await call('GET', `/api/user/files?sortBy=${field}&order=${order}&perpage=4&page=2`, {
        token,
      });
      expect(page2.body.page.map((file: Listed) => file.id)).toEqual(
        expectedOrder(files, field, order).slice(4, 8),
      );
    }
  }
}

const itemOf = async (userId: string, fileId: string) =>
  (await documents.send(new GetCommand({ TableName: tableName, Key: fileKey(userId, fileId) }))).Item ?? {};

test('entries the previous version wrote for files at the default are taken out; listings stay whole and ordered', async () => {
  const user = await signedInUser();
  const png = (n: number) => ({ fileName: `f${n}.png`, type: 'image/png', content: Buffer.alloc(10 + n) });
  const plain = await upload(user.token, [0, 1, 2, 3, 4].map(png));
  const expiring = await upload(user.token, [5, 6].map(png), { 'x-zipline-deletes-at': '2d' });
  await download(plain[1]?.url as string);
  await download(expiring[0]?.url as string);
  for (const file of [plain[2], expiring[1]]) {
    await call('PATCH', `/api/user/files/${file?.id}`, { token: user.token, json: { favorite: true } });
  }
  const all = (await call('GET', '/api/user/files?perpage=100', { token: user.token })).body.page as Listed[];
  expect(all).toHaveLength(7);

  // As the previous version wrote them: an entry in every order index, the default encoded.
  let dense = 0;
  for (const file of all) {
    for (const field of SPARSE) {
      const { index, sparse } = SORT_INDEXES[field];
      const item = await itemOf(user.id, file.id);
      if (item[`${index}sk`] !== undefined || !sparse) continue;
      dense++;
      await documents.send(
        new UpdateCommand({
          TableName: tableName,
          Key: fileKey(user.id, file.id),
          UpdateExpression: 'SET #pk = :pk, #sk = :sk',
          ExpressionAttributeNames: { '#pk': `${index}pk`, '#sk': `${index}sk` },
          ExpressionAttributeValues: {
            ':pk': filesPartition(user.id),
            ':sk': sortKeyOf(sparse.absent, file.id),
          },
        }),
      );
    }
  }
  // 5 without an expiry, 5 never viewed, 5 not favourites.
  expect(dense).toBe(15);
  await expectListedInOrder(user.token, all);

  const client = localClient(process.env.DYNAMODB_ENDPOINT as string);
  try {
    expect(await backfillSparseOrderIndexes(client, tableName)).toBe(15);
    expect(await backfillSparseOrderIndexes(client, tableName)).toBe(0);
  } finally {
    client.destroy();
  }
  for (const file of all) {
    const item = await itemOf(user.id, file.id);
    expect(item.gsi4sk !== undefined).toBe(file.deletesAt !== null);
    expect(item.gsi9sk !== undefined).toBe(file.views > 0);
    expect(item.gsi10sk !== undefined).toBe(file.favorite);
  }
  await expectListedInOrder(user.token, all);
});
