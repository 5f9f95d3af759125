import { call } from '../support/client.ts';
import { upload } from '../support/files.ts';
import { partitionItems } from '../support/snapshot.ts';
import { signedInUser } from '../support/users.ts';

/** Tags through the HTTP path (issue 35, docs/tags.md): Zipline 4.4's `/api/user/tags` routes and a file's `tags`. */

type Owner = Awaited<ReturnType<typeof signedInUser>>;
const createTag = (owner: Owner, json: unknown) =>
  call('POST', '/api/user/tags', { token: owner.token, json });
const newTag = async (owner: Owner, name: string, color = '#112233') => {
  const response = await createTag(owner, { name, color });
  expect(response.status).toBe(200);
  return response.body as { id: string; name: string; color: string };
};
const setTags = (owner: Owner, fileId: string, tags: unknown) =>
  call('PATCH', `/api/user/files/${fileId}`, { token: owner.token, json: { tags } });
const uploadOne = async (owner: Owner, name = 'a.txt') =>
  (await upload(owner.token, [{ fileName: name, type: 'text/plain', content: `x ${name}` }]))[0] as {
    id: string;
  };
const membershipsOf = async (userId: string) =>
  (await partitionItems(userId)).map((item) => String(item.sk)).filter((sk) => sk.startsWith('TAGGED#'));

test('a tag is created, read, listed, renamed and recoloured as Zipline answers it', async () => {
  const owner = await signedInUser();
  const created = await createTag(owner, { name: '  Holidays ', color: '#A1b2C3' });
  expect(created.status).toBe(200);
  const tag = created.body;
  expect(tag).toEqual({
    id: expect.stringMatching(/^[0-9a-z]{26}$/),
    name: 'Holidays',
    color: '#A1b2C3',
    createdAt: expect.any(String),
    updatedAt: tag.createdAt,
  });
  const second = await newTag(owner, 'Work', '#abc');
  expect((await call('GET', '/api/user/tags', { token: owner.token })).body).toEqual([tag, second]);
  expect((await call('GET', `/api/user/tags/${tag.id}`, { token: owner.token })).body).toEqual(tag);

  const patched = await call('PATCH', `/api/user/tags/${tag.id}`, {
    token: owner.token,
    json: { name: 'Travel', color: '#000000' },
  });
  expect(patched.status).toBe(200);
  expect(patched.body).toMatchObject({
    id: tag.id,
    name: 'Travel',
    color: '#000000',
    createdAt: tag.createdAt,
  });
  // The old name is free again; a case change of one's own name is no clash.
  expect((await createTag(owner, { name: 'holidays', color: '#fff' })).status).toBe(200);
  const recased = await call('PATCH', `/api/user/tags/${tag.id}`, {
    token: owner.token,
    json: { name: 'TRAVEL' },
  });
  expect(recased.body).toMatchObject({ name: 'TRAVEL', color: '#000000' });
});

test('names are unique per user, case aside (409, nothing written); another user may have the same name', async () => {
  const owner = await signedInUser();
  const tag = await newTag(owner, 'Photos');
  const before = await partitionItems(owner.id);
  const clash = await createTag(owner, { name: 'PHOTOS', color: '#123456' });
  expect(clash.status).toBe(409);
  const other = await newTag(owner, 'Videos');
  const renamed = await call('PATCH', `/api/user/tags/${other.id}`, {
    token: owner.token,
    json: { name: 'photos' },
  });
  expect(renamed.status).toBe(409);
  expect((await partitionItems(owner.id)).length).toBe(before.length + 2);
  expect((await call('GET', `/api/user/tags/${other.id}`, { token: owner.token })).body.name).toBe('Videos');
  const stranger = await signedInUser();
  expect((await createTag(stranger, { name: 'Photos', color: '#123456' })).status).toBe(200);
  expect(tag.name).toBe('Photos');
});

test.each([
  [{ name: 'x', color: 'red' }],
  [{ name: 'x', color: '#12345' }],
  [{ name: 'x', color: '#1234567' }],
  [{ name: 'x', color: '#ggg' }],
  [{ name: 'x', color: ' #123456' }],
  [{ name: '   ', color: '#123' }],
  [{ name: 'a\u0000b', color: '#123' }],
  [{ name: 'y'.repeat(65), color: '#123' }],
  [{ name: 'x' }],
  [{ color: '#123' }],
  [{ name: 'x', color: '#123', files: [] }],
  [[]],
])('bad input %j is a 400 and writes nothing', async (json) => {
  const owner = await signedInUser();
  const response = await createTag(owner, json);
  expect(response.status).toBe(400);
  expect((await call('GET', '/api/user/tags', { token: owner.token })).body).toEqual([]);
});

test("another user's tag is a 404 on every route, and stays as it was", async () => {
  const owner = await signedInUser();
  const tag = await newTag(owner, 'Mine');
  const stranger = await signedInUser();
  const url = `/api/user/tags/${tag.id}`;
  expect((await call('GET', url, { token: stranger.token })).status).toBe(404);
  expect((await call('PATCH', url, { token: stranger.token, json: { name: 'Theirs' } })).status).toBe(404);
  expect((await call('DELETE', url, { token: stranger.token })).status).toBe(404);
  expect((await call('GET', '/api/user/tags/not-an-id', { token: owner.token })).status).toBe(404);
  expect((await call('GET', url, { token: owner.token })).body).toEqual(tag);
  // Nor can it be put on the stranger's file.
  const file = await uploadOne(stranger);
  const refused = await setTags(stranger, file.id, [tag.id]);
  expect(refused.status).toBe(400);
  expect(await membershipsOf(stranger.id)).toEqual([]);
  expect(await membershipsOf(owner.id)).toEqual([]);
});

test("a file's tags: set by PATCH (own tags only, at most 20), shown as tag objects, replaced, removed", async () => {
  const owner = await signedInUser();
  const [red, blue] = [await newTag(owner, 'Red', '#ff0000'), await newTag(owner, 'Blue', '#0000ff')];
  const file = await uploadOne(owner);
  const tagged = await setTags(owner, file.id, [blue.id, red.id, red.id]);
  expect(tagged.status).toBe(200);
  const summary = (tag: { id: string; name: string; color: string }) => ({
    id: tag.id,
    name: tag.name,
    color: tag.color,
    createdAt: expect.any(String),
    updatedAt: expect.any(String),
  });
  expect(tagged.body.tags).toEqual([summary(red), summary(blue)]);
  expect((await call('GET', `/api/user/files/${file.id}`, { token: owner.token })).body.tags).toEqual(
    tagged.body.tags,
  );
  const listed = await call('GET', '/api/user/files', { token: owner.token });
  expect(listed.body.page[0].tags).toEqual(tagged.body.tags);
  expect((await membershipsOf(owner.id)).sort()).toEqual(
    [`TAGGED#${red.id}#${file.id}`, `TAGGED#${blue.id}#${file.id}`].sort(),
  );

  // Unknown ids, malformed ids, too many: 400, nothing changed.
  for (const tags of [
    [red.id, '01jd0000000000000000000000'],
    ['nope'],
    Array.from({ length: 21 }, (_, i) => `t${i}`),
    'x',
  ]) {
    expect((await setTags(owner, file.id, tags)).status).toBe(400);
  }
  expect((await call('GET', `/api/user/files/${file.id}`, { token: owner.token })).body.tags).toHaveLength(2);

  const replaced = await setTags(owner, file.id, [blue.id]);
  expect(replaced.body.tags).toEqual([summary(blue)]);
  expect(await membershipsOf(owner.id)).toEqual([`TAGGED#${blue.id}#${file.id}`]);
  expect((await setTags(owner, file.id, [])).body.tags).toEqual([]);
  expect(await membershipsOf(owner.id)).toEqual([]);
});

test('deleting a tag takes it off its files; deleting a file or its owner leaves no membership behind', async () => {
  const owner = await signedInUser();
  const [gone, kept] = [await newTag(owner, 'Gone'), await newTag(owner, 'Kept')];
  const files = [
    await uploadOne(owner, '1.txt'),
    await uploadOne(owner, '2.txt'),
    await uploadOne(owner, '3.txt'),
  ];
  for (const file of files) expect((await setTags(owner, file.id, [gone.id, kept.id])).status).toBe(200);

  const deleted = await call('DELETE', `/api/user/tags/${gone.id}`, { token: owner.token });
  expect(deleted.status).toBe(200);
  expect(deleted.body).toEqual({ success: true });
  expect((await call('GET', `/api/user/tags/${gone.id}`, { token: owner.token })).status).toBe(404);
  for (const file of files) {
    const read = await call('GET', `/api/user/files/${file.id}`, { token: owner.token });
    expect(read.body.tags.map((tag: { id: string }) => tag.id)).toEqual([kept.id]);
  }
  expect((await membershipsOf(owner.id)).every((sk) => sk.startsWith(`TAGGED#${kept.id}#`))).toBe(true);
  expect(
    (await partitionItems(owner.id)).filter((item) => item.tags instanceof Set && item.tags.has(gone.id)),
  ).toEqual([]);
  // The name is free again.
  expect((await createTag(owner, { name: 'Gone', color: '#123' })).status).toBe(200);

  expect((await call('DELETE', `/api/user/files/${files[0]?.id}`, { token: owner.token })).status).toBe(200);
  expect(await membershipsOf(owner.id)).toHaveLength(2);

  const admin = await signedInUser('SUPERADMIN');
  expect((await call('DELETE', `/api/users/${owner.id}`, { cookie: admin.cookie })).status).toBe(200);
  expect(await partitionItems(owner.id)).toEqual([]);
});

test('GET /api/users/{id}/tags: an administrator reads the tags of a user it may act on; others 404 or 403', async () => {
  const user = await signedInUser();
  const tag = await newTag(user, 'Shared');
  const admin = await signedInUser('ADMIN');
  const root = await signedInUser('SUPERADMIN');
  expect((await call('GET', `/api/users/${user.id}/tags`, { cookie: admin.cookie })).body).toEqual([tag]);
  expect((await call('GET', `/api/users/${root.id}/tags`, { cookie: admin.cookie })).status).toBe(404);
  expect((await call('GET', `/api/users/${admin.id}/tags`, { cookie: root.cookie })).status).toBe(200);
  expect(
    (await call('GET', `/api/users/${user.id}/tags`, { token: (await signedInUser()).token })).status,
  ).toBe(403);
});
