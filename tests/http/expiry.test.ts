import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import sharp from 'sharp';
import { documents, tableName } from '#shared/db/client';
import { EXPIRY_INDEX, expiryIndexKey, fileNameKey, fileStatsKey } from '#shared/db/keys/files';
import { loadHandler } from '../../infra/local/dispatch.ts';
import { ensureTable } from '../../infra/local/dynamodb.ts';
import { backfillExpiryIndex } from '../../infra/table-upgrade.ts';
import { call } from '../support/client.ts';
import { download, expireFile, upload } from '../support/files.ts';
import { withTableMadeBefore } from '../support/legacy-table.ts';
// Points the S3 client at this file's own S3 server, whose object-created events make thumbnails:
// what loads the S3 client is imported below, once it has.
import { objectEvents } from '../support/object-events.ts';
import { changedKeys, partitionItems, tableSnapshot } from '../support/snapshot.ts';
import { signedInUser } from '../support/users.ts';

type User = Awaited<ReturnType<typeof signedInUser>>;
interface Uploaded {
  id: string;
  name: string;
  type: string;
  url: string;
}

const PAST = '2020-01-01T00:00:00.000Z';
const IN_A_MONTH = () => new Date(Date.now() + 30 * 86_400_000).toISOString();

const { bucketName, s3 } = await import('#shared/s3/client');
const { sweepExpiredFiles } = await import('#shared/files/expiry/sweep');

/** The scheduled function as EventBridge starts it (and the runner, every few seconds). */
const runSweep = async () =>
  ((await loadHandler('files/expire')) as unknown as () => Promise<Record<string, number>>)();

const patch = (user: User, id: string, json: Record<string, unknown>) =>
  call('PATCH', `/api/user/files/${id}`, { token: user.token, json });

const listing = (user: User, query = '') =>
  call('GET', `/api/user/files?perpage=100${query}`, { token: user.token });

/** Every listed file's id, page by numbered page. */
async function listedIds(user: User, query = ''): Promise<string[]> {
  const ids: string[] = [];
  for (let page = 1; ; page++) {
    const response = await listing(user, `&page=${page}${query}`);
    expect(response.status).toBe(200);
    const found = (response.body.page as { id: string }[]).map((file) => file.id);
    ids.push(...found);
    if (found.length < 100) return ids;
  }
}

const counters = async (userId: string) =>
  (
    await documents.send(
      new GetCommand({ TableName: tableName, Key: fileStatsKey(userId), ConsistentRead: true }),
    )
  ).Item;

async function objectKeys(userId: string) {
  const keys: string[] = [];
  for (const prefix of [`files/${userId}/`, `thumbnails/${userId}/`]) {
    const listed = await s3.send(new ListObjectsV2Command({ Bucket: bucketName, Prefix: prefix }));
    keys.push(...(listed.Contents ?? []).map((object) => object.Key as string));
  }
  return keys.sort();
}

/** The counters a recount of the user's remaining file items gives. */
async function recount(userId: string) {
  const files = (await partitionItems(userId)).filter((item) => String(item.sk).startsWith('FILE#'));
  const media = (item: Record<string, unknown>) => item.media === true;
  return {
    files: files.length,
    bytes: files.reduce((sum, item) => sum + Number(item.size), 0),
    favorites: files.filter((item) => item.favorite).length,
    media: files.filter(media).length,
    favoriteMedia: files.filter((item) => item.favorite && media(item)).length,
  };
}

const countersOf = async (userId: string) => {
  const item = (await counters(userId)) ?? {};
  return {
    files: Number(item.files),
    bytes: Number(item.bytes),
    favorites: Number(item.favorites),
    media: Number(item.media),
    favoriteMedia: Number(item.favoriteMedia),
  };
};

describe('a user with hundreds of files, four of them past their deletesAt', () => {
  let owner: User;
  let files: Uploaded[];
  let expired: Uploaded[];
  let kept: Uploaded;

  beforeAll(async () => {
    owner = await signedInUser();
    files = [];
    for (let batch = 0; batch < 10; batch++) {
      files.push(
        ...(await upload(
          owner.token,
          Array.from({ length: 30 }, (_, index) => ({
            fileName: `note-${batch}-${index}.txt`,
            type: 'text/plain',
            content: Buffer.from(`note ${batch} ${index}`),
          })),
        )),
      );
    }
    // An image with its thumbnail, favourited: every counter and both objects are involved.
    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#3a7' } })
      .png()
      .toBuffer();
    const [image] = await upload(owner.token, [{ fileName: 'photo.png', type: 'image/png', content: png }]);
    await objectEvents.settled();
    files.push(image as Uploaded);
    expect((await patch(owner, image?.id as string, { favorite: true })).status).toBe(200);
    expired = [image as Uploaded, files[3] as Uploaded, files[150] as Uploaded, files[299] as Uploaded];
    for (const file of expired) await expireFile(owner.id, file.id, PAST);
    kept = files[10] as Uploaded;
    expect((await patch(owner, kept.id, { deletesAt: IN_A_MONTH() })).status).toBe(200);
  }, 120_000);

  test('before any sweep, listings, search, totals and reads leave them out', async () => {
    const expiredIds = new Set(expired.map((file) => file.id));
    expect((await listing(owner)).body.total).toBe(297);
    const ids = await listedIds(owner);
    expect(new Set(ids).size).toBe(297);
    expect(ids.filter((id) => expiredIds.has(id))).toEqual([]);
    expect(await listedIds(owner, '&sortBy=name&order=asc')).toHaveLength(297);
    // Every order, and a deep numbered page that skips over where they were.
    const byExpiry = await listing(owner, '&sortBy=deletesAt&order=asc');
    expect((byExpiry.body.page as { id: string }[])[0]?.id).toBe(kept.id);
    const deep = await call('GET', '/api/user/files?perpage=100&page=3', { token: owner.token });
    expect(deep.body.page).toHaveLength(97);
    expect((deep.body.page as { id: string }[]).some((file) => expiredIds.has(file.id))).toBe(false);
    // The filters' totals: the expired image was the only favourite (text counts as media too).
    expect((await listing(owner, '&favorite=true')).body.total).toBe(0);
    expect((await listing(owner, '&filter=dashboard')).body.total).toBe(297);
    const search = await listing(owner, `&searchField=name&searchQuery=${expired[1]?.name}`);
    expect(search.body.total).toBe(0);
    for (const file of expired) {
      expect((await call('GET', `/api/user/files/${file.id}`, { token: owner.token })).status).toBe(404);
      expect((await patch(owner, file.id, { deletesAt: null })).status).toBe(404);
      expect((await download(file.url)).status).toBe(404);
    }
  });

  test('one sweep deletes exactly them: items, name claims, bytes, thumbnail; the counters stay exact; a second changes nothing', async () => {
    const before = await tableSnapshot();
    const objectsBefore = await objectKeys(owner.id);
    expect(objectsBefore).toContain(`thumbnails/${owner.id}/${expired[0]?.id}.webp`);
    const report = await runSweep();
    expect(report).toEqual({ expired: 4, skipped: 0, failed: 0 });

    const expectedGone = expired.flatMap((file) => [
      `USER#${owner.id}|FILE#${file.id}`,
      `${fileNameKey(file.name).pk}|FILENAME`,
    ]);
    const after = await tableSnapshot();
    // The counters, and the count of each type the expired files had (issue 36's `sortTypeCount`).
    const counters = [...new Set(expired.map((file) => `FILESTATS#TYPE#${file.type}`)), 'FILESTATS'];
    expect(changedKeys(before, after)).toEqual(
      [...expectedGone, ...counters.map((sk) => `USER#${owner.id}|${sk}`)].sort(),
    );
    for (const key of expectedGone) expect(after.has(key)).toBe(false);
    expect(await countersOf(owner.id)).toEqual(await recount(owner.id));
    expect(await countersOf(owner.id)).toMatchObject({
      files: 297,
      favorites: 0,
      media: 297,
      favoriteMedia: 0,
    });

    const image = expired[0] as Uploaded;
    const goneObjects = objectsBefore.filter((key) => expired.some((file) => key.includes(file.id)));
    expect(goneObjects).toEqual(
      [
        `files/${owner.id}/${image.id}`,
        `thumbnails/${owner.id}/${image.id}.webp`,
        ...expired.slice(1).map((f) => `files/${owner.id}/${f.id}`),
      ].sort(),
    );
    expect(await objectKeys(owner.id)).toEqual(objectsBefore.filter((key) => !goneObjects.includes(key)));

    expect(await runSweep()).toEqual({ expired: 0, skipped: 0, failed: 0 });
    expect(changedKeys(after, await tableSnapshot())).toEqual([]);
    expect((await download(kept.url)).status).toBe(200);
  });
});

describe('the sweep beside other writers', () => {
  test('a PATCH that moves deletesAt in the same moment either lands first (the file stays) or finds it gone', async () => {
    const owner = await signedInUser();
    const uploaded = await upload(
      owner.token,
      Array.from({ length: 12 }, (_, index) => ({
        fileName: `race-${index}.txt`,
        type: 'text/plain',
        content: Buffer.from(`race ${index}`),
      })),
    );
    const soon = new Date(Date.now() + 3_600_000).toISOString();
    for (const file of uploaded) expect((await patch(owner, file.id, { deletesAt: soon })).status).toBe(200);
    // The sweep as it will run in two hours, while each file is given another month.
    const later = new Date(Date.now() + 7_200_000);
    const [report, ...patches] = await Promise.all([
      sweepExpiredFiles(later),
      ...uploaded.map((file) => patch(owner, file.id, { deletesAt: IN_A_MONTH() })),
    ]);
    const items = (await partitionItems(owner.id)).filter((item) => String(item.sk).startsWith('FILE#'));
    uploaded.forEach((file, index) => {
      const item = items.find((candidate) => candidate.id === file.id);
      if (item) {
        expect(patches[index]?.status).toBe(200);
        expect(String(item.deletesAt) > later.toISOString()).toBe(true);
      } else {
        expect(patches[index]?.status).toBe(404);
      }
    });
    expect(report.failed).toEqual([]);
    expect(await countersOf(owner.id)).toEqual(await recount(owner.id));
  });

  test('a DELETE in the same moment: the file is deleted once and counted off once', async () => {
    const owner = await signedInUser();
    const uploaded = await upload(
      owner.token,
      Array.from({ length: 12 }, (_, index) => ({
        fileName: `gone-${index}.txt`,
        type: 'text/plain',
        content: Buffer.from(`gone ${index}`),
      })),
    );
    const keep = await upload(owner.token, [
      { fileName: 'keep.txt', type: 'text/plain', content: Buffer.from('k') },
    ]);
    for (const file of uploaded) await expireFile(owner.id, file.id, PAST);
    const [report, ...deletes] = await Promise.all([
      sweepExpiredFiles(),
      ...uploaded.map((file) => call('DELETE', `/api/user/files/${file.id}`, { token: owner.token })),
    ]);
    // Each file deleted by one of the two; a second deletion would have counted it off twice.
    expect(deletes.every((response) => response.status === 200 || response.status === 404)).toBe(true);
    expect(report.failed).toEqual([]);
    expect(await countersOf(owner.id)).toEqual({
      files: 1,
      bytes: 1,
      favorites: 0,
      media: 1,
      favoriteMedia: 0,
    });
    expect(await objectKeys(owner.id)).toEqual([`files/${owner.id}/${keep[0]?.id}`]);
  });
});

test('a table from before the expiry index gets it, and its files with a deletesAt their index keys, once', async () => {
  await withTableMadeBefore(EXPIRY_INDEX, async (client, legacyTable) => {
    const expiring = {
      pk: 'USER#u1',
      sk: 'FILE#01JEXPIRING0000000000000',
      entity: 'FILE',
      id: '01JEXPIRING0000000000000',
      deletesAt: PAST,
    };
    const lasting = {
      pk: 'USER#u1',
      sk: 'FILE#01JLASTING00000000000000',
      entity: 'FILE',
      id: '01JLASTING00000000000000',
    };
    for (const item of [expiring, lasting]) {
      await documents.send(new PutCommand({ TableName: legacyTable, Item: item }));
    }
    expect(await ensureTable(client, legacyTable)).toBe(false);
    const described = await client.send(new DescribeTableCommand({ TableName: legacyTable }));
    expect(described.Table?.GlobalSecondaryIndexes?.map((index) => index.IndexName)).toContain(EXPIRY_INDEX);
    const read = async (key: { pk: string; sk: string }) =>
      (await documents.send(new GetCommand({ TableName: legacyTable, Key: { pk: key.pk, sk: key.sk } })))
        .Item;
    expect(await read(expiring)).toMatchObject(expiryIndexKey(expiring.id, PAST));
    expect(await read(lasting)).not.toHaveProperty(`${EXPIRY_INDEX}pk`);
    // Again (the runner's next start, or `npm run upgrade:data` run twice): nothing left to do.
    expect(await backfillExpiryIndex(client, legacyTable)).toBe(0);
  });
});
