import { call } from '../support/client.ts';
import { download, expireFile, upload } from '../support/files.ts';
import { signedInUser } from '../support/users.ts';

/**
 * Listing by tag (issue 35, docs/tags.md): `searchField=tags&searchQuery=<ids>`, Zipline's, paged
 * (by page number and by cursor) and sorted as the library, kept right by renames, favourites, views,
 * expiry and deletion.
 */

type Owner = Awaited<ReturnType<typeof signedInUser>>;
type Page = { status: number; names: string[]; cursor: string | undefined; body: Record<string, unknown> };

async function byTag(owner: Owner, tags: string[], query: Record<string, string> = {}): Promise<Page> {
  const params = new URLSearchParams({ searchField: 'tags', searchQuery: tags.join(','), ...query });
  const response = await call('GET', `/api/user/files?${params}`, { token: owner.token });
  return {
    status: response.status,
    names: ((response.body.page ?? []) as { originalName: string }[]).map((file) => file.originalName),
    cursor: response.headers['x-next-cursor'],
    body: response.body,
  };
}

/** Every page of a listing by tag, following the cursor. */
async function allByCursor(owner: Owner, tags: string[], query: Record<string, string>) {
  const names: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await byTag(owner, tags, { ...query, ...(cursor ? { cursor } : {}) });
    expect(page.status).toBe(200);
    names.push(...page.names);
    cursor = page.cursor;
  } while (cursor);
  return names;
}

let owner: Owner;
let files: Record<string, string>;
let red: string;
let blue: string;
const NAMES = ['delta.txt', 'alpha.txt', 'echo.txt', 'charlie.txt', 'bravo.txt', 'golf.txt', 'foxtrot.txt'];

beforeAll(async () => {
  owner = await signedInUser();
  const tag = async (name: string) =>
    (await call('POST', '/api/user/tags', { token: owner.token, json: { name, color: '#123456' } })).body
      .id as string;
  [red, blue] = [await tag('Red'), await tag('Blue')];
  files = {};
  for (const name of NAMES) {
    const [file] = await upload(owner.token, [{ fileName: name, type: 'text/plain', content: name }]);
    files[name] = (file as { id: string }).id;
  }
  // Red: all but golf; Blue: alpha, charlie, echo, golf.
  for (const name of NAMES) {
    const tags = [
      ...(name === 'golf.txt' ? [] : [red]),
      ...(/alpha|charlie|echo|golf/.test(name) ? [blue] : []),
    ];
    expect(
      (await call('PATCH', `/api/user/files/${files[name]}`, { token: owner.token, json: { tags } })).status,
    ).toBe(200);
  }
});

const redNames = NAMES.filter((name) => name !== 'golf.txt');

test('a tag lists its files in every order, by page number and by cursor, as Zipline answers a tag search', async () => {
  const first = await byTag(owner, [red], { sortBy: 'originalName', order: 'asc', perpage: '2' });
  expect(first.status).toBe(200);
  expect(first.body.search).toEqual({ field: 'tags', query: [red] });
  expect(first.names).toEqual(['alpha.txt', 'bravo.txt']);
  const byNumber: string[] = [];
  for (let page = 1; page <= 4; page++) {
    byNumber.push(
      ...(
        await byTag(owner, [red], { sortBy: 'originalName', order: 'asc', perpage: '2', page: String(page) })
      ).names,
    );
  }
  expect(byNumber).toEqual([...redNames].sort());
  expect(await allByCursor(owner, [red], { sortBy: 'originalName', order: 'desc', perpage: '2' })).toEqual(
    [...redNames].sort().reverse(),
  );
  // Newest first by default (createdAt), as the library.
  expect(await allByCursor(owner, [red], { perpage: '4' })).toEqual([...redNames].reverse());
  expect(await allByCursor(owner, [red], { sortBy: 'size', order: 'asc', perpage: '3' })).toEqual(
    [...redNames].sort((a, b) => a.length - b.length || String(files[a]).localeCompare(String(files[b]))),
  );
});

test('several tags: the files having all of them; an unknown or foreign tag is a 400', async () => {
  expect(
    await allByCursor(owner, [red, blue], { sortBy: 'originalName', order: 'asc', perpage: '1' }),
  ).toEqual(['alpha.txt', 'charlie.txt', 'echo.txt']);
  expect((await byTag(owner, [blue], { sortBy: 'originalName', order: 'asc' })).names).toEqual([
    'alpha.txt',
    'charlie.txt',
    'echo.txt',
    'golf.txt',
  ]);
  expect((await byTag(owner, [red, '01jd0000000000000000000000'])).status).toBe(400);
  expect((await byTag(owner, ['nope'])).status).toBe(400);
  const stranger = await signedInUser();
  expect((await byTag(stranger, [red])).status).toBe(400);
  // A cursor made for one tag is refused for another.
  const page = await byTag(owner, [red], { perpage: '1' });
  expect((await byTag(owner, [blue], { perpage: '1', cursor: page.cursor as string })).status).toBe(400);
});

test('renames, favourites, views, expiry and deletion move files in tag listings as in the library', async () => {
  const patch = (name: string, json: unknown) =>
    call('PATCH', `/api/user/files/${files[name]}`, { token: owner.token, json });
  expect((await patch('echo.txt', { originalName: 'aaa.txt' })).status).toBe(200);
  expect((await byTag(owner, [blue], { sortBy: 'originalName', order: 'asc', perpage: '1' })).names).toEqual([
    'aaa.txt',
  ]);
  expect((await patch('charlie.txt', { favorite: true })).status).toBe(200);
  expect((await byTag(owner, [blue], { favorite: 'true' })).names).toEqual(['charlie.txt']);
  expect((await byTag(owner, [blue], { sortBy: 'favorite', order: 'desc', perpage: '1' })).names).toEqual([
    'charlie.txt',
  ]);

  const alpha = await call('GET', `/api/user/files/${files['alpha.txt']}`, { token: owner.token });
  for (let view = 0; view < 2; view++) expect((await download(alpha.body.url)).status).toBe(200);
  expect((await byTag(owner, [blue], { sortBy: 'views', order: 'desc', perpage: '1' })).names).toEqual([
    'alpha.txt',
  ]);
  expect((await byTag(owner, [blue], { sortBy: 'views', order: 'asc', perpage: '4' })).names.at(-1)).toBe(
    'alpha.txt',
  );

  await expireFile(owner.id, files['golf.txt'] as string);
  expect((await byTag(owner, [blue], { sortBy: 'originalName', order: 'asc' })).names).toEqual([
    'aaa.txt',
    'alpha.txt',
    'charlie.txt',
  ]);
  expect((await call('DELETE', `/api/user/files/${files['alpha.txt']}`, { token: owner.token })).status).toBe(
    200,
  );
  expect((await byTag(owner, [blue], { sortBy: 'originalName', order: 'asc' })).names).toEqual([
    'aaa.txt',
    'charlie.txt',
  ]);
});
