import { jest } from '@jest/globals';
import { call } from '../support/client.ts';
import { uploadMany } from '../support/files.ts';
import { partitionItems } from '../support/snapshot.ts';
import { signedInUser } from '../support/users.ts';

/**
 * The bulk PATCH's `tags` (issue 35): `{files, tags: {add, remove}}` on up to 1,000 of the caller's
 * files, each file changed once or not at all, with its tag memberships, whatever runs beside it.
 */

jest.setTimeout(300_000);

type Owner = Awaited<ReturnType<typeof signedInUser>>;

const bulk = (owner: Owner, json: unknown) =>
  call('PATCH', '/api/user/files/transaction', { token: owner.token, json });
const newTag = async (owner: Owner, name: string) =>
  (await call('POST', '/api/user/tags', { token: owner.token, json: { name, color: '#abc' } })).body
    .id as string;
const fileTags = async (owner: Owner, id: string) =>
  ((await call('GET', `/api/user/files/${id}`, { token: owner.token })).body.tags as { id: string }[])
    .map((tag) => tag.id)
    .sort();
/** The ids of a tag's files, through the listing by tag (its memberships). */
const listedByTag = async (owner: Owner, tagId: string) =>
  (
    (
      await call('GET', `/api/user/files?searchField=tags&searchQuery=${tagId}&perpage=100`, {
        token: owner.token,
      })
    ).body.page as { id: string }[]
  )
    .map((file) => file.id)
    .sort();
/** The membership items of a tag left in the owner's partition (none may outlive its file or tag). */
const memberships = async (owner: Owner, tagId: string) =>
  (await partitionItems(owner.id))
    .filter((item) => String(item.sk).startsWith(`TAGGED#${tagId}#`))
    .map((item) => String(item.fileId))
    .sort();

test('tags added and removed in bulk: counted once, listed by tag, bad input a 400 that changes nothing', async () => {
  const [owner, other] = await Promise.all([signedInUser(), signedInUser()]);
  const ids = await uploadMany(owner.token, 30, 'text');
  const [theirs] = await uploadMany(other.token, 1, 'text');
  const [work, home, theirTag] = [
    await newTag(owner, 'Work'),
    await newTag(owner, 'Home'),
    await newTag(other, 'Theirs'),
  ];
  const added = await bulk(owner, { files: [...ids, theirs, 'nope'], tags: { add: [work, home] } });
  expect(added.status).toBe(200);
  expect(added.body.count).toBe(30);
  expect(added.body.missing.sort()).toEqual([theirs, 'nope'].sort());
  expect(await fileTags(owner, ids[0] as string)).toEqual([work, home].sort());
  expect(await listedByTag(owner, work)).toEqual([...ids].sort());
  expect(await fileTags(other, theirs as string)).toEqual([]);
  // Already so: nothing changes, nothing counted.
  expect((await bulk(owner, { files: ids, tags: { add: [work] } })).body.count).toBe(0);
  const removed = await bulk(owner, { files: ids.slice(0, 10), tags: { remove: [home] } });
  expect(removed.body).toEqual({ count: 10, missing: [], failed: [] });
  expect(await listedByTag(owner, home)).toEqual(ids.slice(10).sort());
  expect(await memberships(owner, home)).toEqual(ids.slice(10).sort());

  const before = await partitionItems(owner.id);
  for (const tags of [
    { add: [theirTag] },
    { add: ['01jzzzzzzzzzzzzzzzzzzzzzzz'] },
    { add: ['not a tag id'] },
    { add: [work], remove: [work] },
    {},
    { add: [] },
    { add: Array.from({ length: 21 }, (_, index) => `01j${String(index).padStart(23, '0')}`) },
    { add: [work], colour: 'red' },
    [work],
  ]) {
    const refused = await bulk(owner, { files: ids, tags });
    expect([JSON.stringify(tags), refused.status]).toEqual([JSON.stringify(tags), 400]);
  }
  expect((await bulk(owner, { files: ids, tags: { add: [theirTag] } })).body.error).toMatch(/invalid tag/);
  expect((await bulk(owner, { files: ids, tags: { add: [work] }, favorite: true })).status).toBe(400);
  expect(await partitionItems(owner.id)).toEqual(before);
});

test('a file that would pass 20 tags is left as it is and reported as failed', async () => {
  const owner = await signedInUser();
  const [full, light] = await uploadMany(owner.token, 2, 'text');
  const tags: string[] = [];
  for (let index = 0; index < 21; index++) tags.push(await newTag(owner, `t${index}`));
  const twenty = tags.slice(0, 20);
  expect(
    (await call('PATCH', `/api/user/files/${full}`, { token: owner.token, json: { tags: twenty } })).status,
  ).toBe(200);
  const result = await bulk(owner, { files: [full, light], tags: { add: [tags[20]] } });
  expect(result.body).toEqual({ count: 1, missing: [], failed: [full] });
  expect(await fileTags(owner, full as string)).toEqual([...twenty].sort());
  expect(await fileTags(owner, light as string)).toEqual([tags[20]]);
});

test('a bulk tag racing single deletes and single tag edits: each file tagged once or missing, no membership outlives its file, no edit lost', async () => {
  const owner = await signedInUser();
  const ids = await uploadMany(owner.token, 60, 'text');
  const [bulkTag, singleTag] = [await newTag(owner, 'Bulk'), await newTag(owner, 'Single')];
  const deleted = ids.filter((_, index) => index % 3 === 0);
  const edited = ids.filter((_, index) => index % 3 === 1);
  const [tagged, ...singles] = await Promise.all([
    bulk(owner, { files: ids, tags: { add: [bulkTag] } }),
    ...deleted.map((id) => call('DELETE', `/api/user/files/${id}`, { token: owner.token })),
    ...edited.map((id) =>
      call('PATCH', `/api/user/files/${id}`, { token: owner.token, json: { tags: [singleTag] } }),
    ),
  ]);
  expect(tagged?.status).toBe(200);
  expect(singles.map((response) => response.status)).toEqual(singles.map(() => 200));
  // A file deleted before its turn is missing; one deleted after it was tagged counts.
  expect(tagged?.body.count + tagged?.body.missing.length).toBe(60);
  expect(tagged?.body.missing.every((id: string) => deleted.includes(id))).toBe(true);
  const alive = ids.filter((id) => !deleted.includes(id));
  const tagsOf = new Map(
    await Promise.all(alive.map(async (id) => [id, await fileTags(owner, id)] as const)),
  );
  // Untouched files have the bulk tag; an edited one has both (edited first) or only its own (edited
  // after: a PATCH sets exactly its tags). The memberships are exactly the files having the tag.
  for (const id of alive) {
    const expected = edited.includes(id) ? [[singleTag], [bulkTag, singleTag].sort()] : [[bulkTag]];
    expect(expected).toContainEqual(tagsOf.get(id));
  }
  const withBulkTag = alive.filter((id) => tagsOf.get(id)?.includes(bulkTag)).sort();
  expect(withBulkTag.length).toBeGreaterThanOrEqual(alive.length - edited.length);
  expect(await memberships(owner, bulkTag)).toEqual(withBulkTag);
  expect(await listedByTag(owner, bulkTag)).toEqual(withBulkTag);
  expect(await memberships(owner, singleTag)).toEqual([...edited].sort());
});

test("a bulk tag racing the tag's deletion leaves no file with it and no membership", async () => {
  const owner = await signedInUser();
  const ids = await uploadMany(owner.token, 60, 'text');
  const tagId = await newTag(owner, 'Doomed');
  const [tagged, deletion] = await Promise.all([
    bulk(owner, { files: ids, tags: { add: [tagId] } }),
    call('DELETE', `/api/user/tags/${tagId}`, { token: owner.token }),
  ]);
  expect(deletion.status).toBe(200);
  // The request checks the tag before any file; deleted first, the whole request is the 400.
  if (tagged.status === 200) expect(tagged.body.count + tagged.body.failed.length).toBe(60);
  else expect(tagged.status).toBe(400);
  expect(await memberships(owner, tagId)).toEqual([]);
  const files = (await call('GET', '/api/user/files?perpage=100', { token: owner.token })).body.page as {
    tags: unknown[];
  }[];
  expect(files.every((file) => file.tags.length === 0)).toBe(true);
});
