import { randomBytes } from 'node:crypto';
import { call } from '../support/client.ts';
import { download, upload, uploadRequest } from '../support/files.ts';
import { signedInUser } from '../support/users.ts';

const unique = () => `n${randomBytes(6).toString('hex')}`;
const txt = [{ fileName: 'notes.txt', type: 'text/plain', content: 'hello' }];

async function fileCount(token: string): Promise<number> {
  return (await call('GET', '/api/user/files', { token })).body.total;
}

describe('x-zipline-* headers honoured as Zipline defines them', () => {
  test('x-zipline-no-json: the URLs as plain text, comma-separated as Zipline joins them', async () => {
    const owner = await signedInUser();
    const response = await uploadRequest(
      owner.token,
      [...txt, { fileName: 'b.png', type: 'image/png', content: 'png' }],
      { 'x-zipline-no-json': 'true' },
    );
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    const urls = response.text.split(',');
    expect(urls).toHaveLength(2);
    for (const url of urls) expect(url).toMatch(/^https:\/\/localhost\/u\/[0-9a-z]+\.(txt|png)$/);
    expect((await download(urls[1] as string)).bytes?.toString()).toBe('png');
    // Only `true` is true.
    const json = await uploadRequest(owner.token, txt, { 'x-zipline-no-json': 'false' });
    expect(json.body.files).toHaveLength(1);
  });

  test('x-zipline-filename: the public name, extension added, unique, percent-decoded, same rules', async () => {
    const owner = await signedInUser();
    const name = unique();
    const [named] = await upload(owner.token, txt, { 'x-zipline-filename': name });
    expect(named?.name).toBe(`${name}.txt`);
    expect((await download(named?.url as string)).bytes?.toString()).toBe('hello');
    // Already ending with the extension: not doubled. Zipline's uploader percent-encodes it.
    const spaced = `${unique()} report.txt`;
    const [encoded] = await upload(owner.token, txt, { 'x-zipline-filename': encodeURIComponent(spaced) });
    expect(encoded?.name).toBe(spaced);
    const before = await fileCount(owner.token);
    const cases: [Record<string, string>, string, typeof txt?][] = [
      [{ 'x-zipline-filename': name }, `a file named ${name}.txt already exists`],
      [{ 'x-zipline-filename': 'a/b' }, 'x-zipline-filename must be a file name'],
      [{ 'x-zipline-filename': '..' }, 'x-zipline-filename must be a file name'],
      [{ 'x-zipline-filename': 'x'.repeat(256) }, 'x-zipline-filename must be a file name'],
      [{ 'x-zipline-filename': `${'y'.repeat(253)}` }, 'is over 255 bytes with its extension'],
      [
        { 'x-zipline-filename': unique() },
        'two files of this upload would have the same name',
        [...txt, { fileName: 'other.txt', type: 'text/plain', content: 'o' }],
      ],
    ];
    for (const [headers, message, parts] of cases) {
      const response = await uploadRequest(owner.token, parts ?? txt, headers);
      expect([response.status, response.body.error]).toEqual([400, expect.stringContaining(message)]);
    }
    expect(await fileCount(owner.token)).toBe(before);
  });

  test('x-zipline-file-extension and x-zipline-extensionless', async () => {
    const owner = await signedInUser();
    const [webp] = await upload(owner.token, txt, { 'x-zipline-file-extension': 'WebP' });
    expect(webp?.name).toMatch(/^[0-9a-z]+\.webp$/);
    const [dotted] = await upload(owner.token, txt, { 'x-zipline-file-extension': '.md' });
    expect(dotted?.name).toMatch(/\.md$/);
    const name = unique();
    const [byName] = await upload(owner.token, [{ ...txt[0], fileName: `${name}.txt` } as never], {
      'x-zipline-format': 'name',
      'x-zipline-file-extension': 'log',
    });
    expect(byName?.name).toBe(`${name}.log`);
    const [bare] = await upload(owner.token, txt, { 'x-zipline-extensionless': 'true' });
    expect(bare?.name).toMatch(/^[0-9a-z]+$/);
    for (const extension of ['tar.gz', 'a b', 'x'.repeat(17)]) {
      const response = await uploadRequest(owner.token, txt, { 'x-zipline-file-extension': extension });
      expect([response.status, response.body.error]).toEqual([
        400,
        'x-zipline-file-extension must be 1 to 16 letters or digits, e.g. png',
      ]);
    }
  });

  test('x-zipline-domain: the host of the returned URLs, checked as a host name', async () => {
    const owner = await signedInUser();
    const [file] = await upload(owner.token, txt, { 'x-zipline-domain': 'files.example.com' });
    expect(file?.url).toBe(`https://files.example.com/u/${file?.name}`);
    const [ported] = await upload(owner.token, txt, { 'x-zipline-domain': 'cdn.example.org:8443' });
    expect(ported?.url).toMatch(/^https:\/\/cdn\.example\.org:8443\/u\//);
    // A list: one of them, picked at random (as Zipline does).
    const [listed] = await upload(owner.token, txt, { 'x-zipline-domain': 'a.example.com, b.example.com' });
    expect(listed?.url).toMatch(/^https:\/\/[ab]\.example\.com\/u\//);
    const plain = await uploadRequest(owner.token, txt, {
      'x-zipline-domain': 'files.example.com',
      'x-zipline-no-json': 'true',
    });
    expect(plain.text).toMatch(/^https:\/\/files\.example\.com\/u\/[0-9a-z]+\.txt$/);
    const before = await fileCount(owner.token);
    for (const domain of [
      'https://files.example.com',
      'files.example.com/x',
      'a b',
      'evil.com@x',
      'x:99999',
      '-a.com',
    ]) {
      const response = await uploadRequest(owner.token, txt, { 'x-zipline-domain': domain });
      expect([domain, response.status, response.body.error]).toEqual([
        domain,
        400,
        expect.stringContaining('x-zipline-domain must be a host name'),
      ]);
    }
    expect(await fileCount(owner.token)).toBe(before);
  });

  test('x-zipline-original-name is lenient: only true is true', async () => {
    const owner = await signedInUser();
    const [sentName] = await upload(owner.token, txt, { 'x-zipline-original-name': 'my-notes.txt' });
    expect((await download(sentName?.url as string)).response?.headers.get('content-disposition')).toContain(
      sentName?.name,
    );
    const [byOriginal] = await upload(owner.token, txt, { 'x-zipline-original-name': 'TRUE' });
    expect(
      (await download(byOriginal?.url as string)).response?.headers.get('content-disposition'),
    ).toContain('notes.txt');
  });

  test('an expiry that is not ahead is a 400 saying so on every upload path, and stores nothing', async () => {
    const owner = await signedInUser();
    const past = { 'x-zipline-deletes-at': 'date=2001-01-01T00:00:00Z' };
    const message =
      'x-zipline-deletes-at must be ahead of now: a file past its expiry is deleted at once and for good (to delete it now, DELETE it)';
    const direct = await uploadRequest(owner.token, txt, past);
    const presigned = await call('POST', '/api/user/files/uploads', {
      token: owner.token,
      headers: past,
      json: { originalName: 'big.bin', size: 10 },
    });
    const chunk = await uploadRequest(owner.token, txt, {
      ...past,
      'content-range': 'bytes 0-4/10',
      'x-zipline-p-filename': 'notes.txt',
      'x-zipline-p-content-type': 'text/plain',
      'x-zipline-p-content-length': '10',
    });
    const lifetime = await uploadRequest(owner.token, txt, { 'x-zipline-deletes-at': '-1d' });
    for (const response of [direct, presigned, chunk, lifetime]) {
      expect([response.status, response.body.error]).toEqual([400, message]);
    }
    expect(await fileCount(owner.token)).toBe(0);
  });

  test('x-zipline-format random-words (and gfycat) make a random name', async () => {
    const owner = await signedInUser();
    for (const format of ['random-words', 'gfycat']) {
      const [file] = await upload(owner.token, txt, { 'x-zipline-format': format });
      expect(file?.name).toMatch(/^[0-9a-z]+\.txt$/);
    }
  });

  test('x-zipline-deletes-at reads the ms grammar and date=', async () => {
    const owner = await signedInUser();
    const cases: [string, number][] = [
      ['1 day', 86_400_000],
      ['2 weeks', 14 * 86_400_000],
      ['10m', 600_000],
      ['1.5h', 5_400_000],
      ['3 Hours', 3 * 3_600_000],
    ];
    for (const [value, lifetime] of cases) {
      const started = Date.now();
      const response = await uploadRequest(owner.token, txt, { 'x-zipline-deletes-at': value });
      const at = Date.parse(response.body.deletesAt);
      expect([value, at >= started + lifetime, at <= Date.now() + lifetime]).toEqual([value, true, true]);
    }
    const dated = await uploadRequest(owner.token, txt, {
      'x-zipline-deletes-at': 'date=2031-05-01T10:00:00Z',
    });
    expect(dated.body.deletesAt).toBe('2031-05-01T10:00:00.000Z');
    for (const value of [
      'soon',
      '-1d',
      '0',
      'date=yesterday',
      'date=2001-01-01T00:00:00Z',
      '11 years',
      'x'.repeat(101),
    ]) {
      const response = await uploadRequest(owner.token, txt, { 'x-zipline-deletes-at': value });
      expect([value, response.status, response.body.error]).toEqual([
        value,
        400,
        expect.stringContaining('x-zipline-deletes-at must be'),
      ]);
    }
  });

  test('headers without a meaning here are a 400 naming them, and store nothing', async () => {
    const owner = await signedInUser();
    const cases: [Record<string, string>, string][] = [
      [{ 'x-zipline-folder': 'fld_1' }, 'x-zipline-folder: folder not found'],
      [
        { 'x-zipline-p-identifier': 'abc' },
        'x-zipline-p-identifier needs content-range: it belongs to a chunked upload',
      ],
    ];
    for (const [headers, error] of cases) {
      const response = await uploadRequest(owner.token, txt, headers);
      expect(response.body).toEqual({ error, statusCode: 400 });
    }
    // An empty header is no header (Zipline's reading).
    expect((await uploadRequest(owner.token, txt, { 'x-zipline-folder': '' })).status).toBe(200);
    expect(await fileCount(owner.token)).toBe(1);
  });

  test('the presigned start takes the file headers; the completion the answer headers', async () => {
    const owner = await signedInUser();
    const refused = await call('POST', '/api/user/files/uploads', {
      token: owner.token,
      json: { originalName: 'big.bin', size: 10 },
      headers: { 'x-zipline-no-json': 'true' },
    });
    expect(refused.body.error).toBe('x-zipline-no-json is not supported on this route');
    const chunked = await call('POST', '/api/user/files/uploads', {
      token: owner.token,
      json: { originalName: 'big.bin', size: 10 },
      headers: { 'content-range': 'bytes 0-1/10' },
    });
    expect(chunked.body.error).toBe('content-range: chunked uploads are not supported on this route');
    const name = unique();
    const started = await call('POST', '/api/user/files/uploads', {
      token: owner.token,
      json: { originalName: 'big.bin', size: 3, type: 'application/octet-stream' },
      headers: { 'x-zipline-filename': name, 'x-zipline-file-extension': 'dat' },
    });
    expect(started.status).toBe(200);
    const put = await fetch(started.body.url, {
      method: 'PUT',
      headers: started.body.headers,
      body: 'abc',
    });
    expect(put.status).toBe(200);
    const completed = await call('POST', `/api/user/files/uploads/${started.body.id}/complete`, {
      token: owner.token,
      headers: { 'x-zipline-no-json': 'true', 'x-zipline-domain': 'dl.example.com' },
    });
    expect(completed.text).toBe(`https://dl.example.com/u/${name}.dat`);
  });
});

describe('searching carries total and pages', () => {
  test('exact totals of the matches, in id order and in another order', async () => {
    const owner = await signedInUser();
    const parts = Array.from({ length: 7 }, (_, index) => ({
      fileName: index < 5 ? `holiday-${index}.txt` : `work-${index}.txt`,
      type: 'text/plain',
      content: 'x'.repeat(index + 1),
    }));
    await upload(owner.token, parts);
    for (const sortBy of ['createdAt', 'size']) {
      const response = await call(
        'GET',
        `/api/user/files?searchField=originalName&searchQuery=holiday&perpage=2&page=3&sortBy=${sortBy}`,
        { token: owner.token },
      );
      expect(response.body).toMatchObject({
        total: 5,
        pages: 3,
        search: { field: 'originalName', query: 'holiday' },
      });
      expect(response.body.page).toHaveLength(1);
    }
  });
});
