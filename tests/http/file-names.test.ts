import { NAME_FORMATS, newPublicName, uploadedFileName } from '#shared/files/names';
import { call } from '../support/client.ts';
import { upload } from '../support/files.ts';
import { signedInUser } from '../support/users.ts';

/** The public name is the only secret of an unauthenticated `/raw/{name}` link. */
describe('generated public names', () => {
  const RANDOM_CHARS = 13; // 13 × 5 bits = 65 bits
  test.each([
    ['random', new RegExp(`^[0-9a-z]{${RANDOM_CHARS}}\\.png$`)],
    ['gfycat', new RegExp(`^[0-9a-z]{${RANDOM_CHARS}}\\.png$`)],
    ['random-words', new RegExp(`^[0-9a-z]{${RANDOM_CHARS}}\\.png$`)],
    ['date', new RegExp(`^\\d{8}-\\d{6}-[0-9a-z]{${RANDOM_CHARS}}\\.png$`)],
    ['uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\.png$/],
  ] as const)('%s names carry at least 64 random bits', (format, shape) => {
    const names = Array.from({ length: 2000 }, () =>
      newPublicName({ format, filename: null, extension: null, extensionless: false }, 'photo.PNG'),
    );
    for (const name of names) expect(name).toMatch(shape);
    expect(new Set(names).size).toBe(names.length);
    if (format === 'uuid') return; // randomUUID: 122 random bits
    // Every random character ranges over all 32 symbols (5 bits each), independently of the clock.
    const random = names.map((name) => name.replace(/\.png$/, '').slice(-RANDOM_CHARS));
    for (let position = 0; position < RANDOM_CHARS; position++) {
      expect(new Set(random.map((text) => text[position])).size).toBe(32);
    }
  });

  test('every format is covered', () => {
    expect([...NAME_FORMATS].sort()).toEqual(['date', 'gfycat', 'name', 'random', 'random-words', 'uuid']);
  });
});

describe('one name rule for multipart and presigned uploads', () => {
  test.each([
    ['../../etc/passwd', 'passwd'],
    ['dir\\sub\\file.txt', 'file.txt'],
    ['a<script>.html', 'a_script_.html'],
    ['what?x=1#frag.txt', 'what_x=1_frag.txt'],
    ['100%.txt', '100_.txt'],
    ['..', 'file'],
  ])('%s is stored as %s both ways, with x-zipline-format: name', async (sent, stored) => {
    const owner = await signedInUser();
    const headers = { 'x-zipline-format': 'name' };
    const [viaMultipart] = await upload(owner.token, [{ fileName: sent, content: 'x' }], headers);
    const multipartFile = await call('GET', `/api/user/files/${viaMultipart?.id}`, { token: owner.token });
    expect(multipartFile.body).toMatchObject({ name: stored, originalName: stored });

    const other = await signedInUser();
    const started = await call('POST', '/api/user/files/uploads', {
      token: other.token,
      json: { originalName: sent, size: 1 },
      headers,
    });
    expect(started.status).toBe(200);
    expect(
      (await fetch(started.body.url, { method: 'PUT', body: 'x', headers: started.body.headers })).status,
    ).toBe(200);
    // Public names are unique across users: the second file named `stored` is refused, not renamed.
    const completed = await call('POST', `/api/user/files/uploads/${started.body.id}/complete`, {
      token: other.token,
    });
    expect(completed.status).toBe(400);
    expect(completed.body.error).toContain(stored);
  });
});

test.each([
  ['photo.png', 'photo.png'],
  ['my report (final).pdf', 'my report (final).pdf'],
  ['C:\\Users\\me\\x.txt', 'x.txt'],
  ['dir/', 'file'],
  ['.', 'file'],
  ['...', '...'],
  ['.env', '.env'],
  ['a"b\'c`d|e.txt', 'a_b_c_d|e.txt'],
  ['tab\there', 'tab_here'],
  ['\u202etxt.exe', '_txt.exe'],
  ['', 'file'],
])('the name rule turns %j into %j', (sent, stored) => {
  expect(uploadedFileName(sent)).toBe(stored);
});
