import { randomBytes } from 'node:crypto';
import { call } from '../support/client.ts';
import { download, upload } from '../support/files.ts';
import { PNG_1X1 } from '../support/pixels.ts';
import { recordSdkCalls } from '../support/sdk-calls.ts';
import { signedInUser } from '../support/users.ts';

// Zipline 4.4's links: `/u/<name>` (every File's `url`) and `/r/<name>`, through the HTTP path.
const recorder = recordSdkCalls();
const SECRET = 'open sesame';
const BROWSER = { accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8' };
const unknownName = () => `missing-${randomBytes(6).toString('hex')}.png`;
const png = [{ fileName: 'a.png', type: 'image/png', content: PNG_1X1 }];

async function owner(viewPages: boolean) {
  const user = await signedInUser();
  const on = await call('PATCH', '/api/user', { token: user.token, json: { view: { enabled: viewPages } } });
  expect(on.status).toBe(200);
  return user;
}

async function uploaded(viewPages: boolean, headers: Record<string, string> = {}) {
  const user = await owner(viewPages);
  const [file] = await upload(user.token, png, headers);
  const { id, name, url } = file as { id: string; name: string; url: string };
  const views = async () => (await call('GET', `/api/user/files/${id}`, { token: user.token })).body.views;
  return { user, id, name, url, views };
}

test('the upload answers /u/<name>, the listing and the file GET its path, whatever the view setting', async () => {
  for (const viewPages of [true, false]) {
    const { user, id, name, url } = await uploaded(viewPages);
    expect(url).toBe(`https://localhost/u/${name}`);
    const got = await call('GET', `/api/user/files/${id}`, { token: user.token });
    expect(got.body.url).toBe(`/u/${name}`);
    const listed = await call('GET', '/api/user/files', { token: user.token });
    expect(listed.body.page[0].url).toBe(`/u/${name}`);
  }
});

test('/u/ with view pages on is the view page, counting one view (the same reads as /view/)', async () => {
  const { name, views } = await uploaded(true);
  recorder.reset();
  const page = await call('GET', `/u/${name}`);
  expect(page.status).toBe(200);
  expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(page.text).toContain('<img');
  // The count on the file's item, its only write (the owner's totals follow from the table's stream).
  expect(recorder.calls.map((c) => c.command)).toEqual([
    'GetItemCommand',
    'BatchGetItemCommand',
    'UpdateItemCommand',
  ]);
  expect(await views()).toBe(1);
  expect((await call('HEAD', `/u/${name}`)).status).toBe(200);
  expect(await views()).toBe(1);
  // The old links keep working.
  expect((await call('GET', `/view/${name}`)).status).toBe(200);
  expect((await download(`/raw/${name}`)).bytes).toEqual(PNG_1X1);
  expect(await views()).toBe(3);
});

test('/u/ with view pages off is the file itself, inline, one view; /r/ is /raw/', async () => {
  const { name, views } = await uploaded(false);
  recorder.reset();
  const file = await download(`/u/${name}`);
  expect(file.bytes).toEqual(PNG_1X1);
  expect(file.redirect.headers['content-type']).toBe('image/png');
  expect(file.redirect.headers['content-disposition']).toMatch(/^inline/);
  // One count on the file's item, nothing on the owner's totals (they follow from the table's stream).
  const updated = recorder.calls.filter((c) => c.command === 'UpdateItemCommand');
  expect(updated.map((c) => String((c.input.Key as { pk: string }).pk).split('#')[0])).toEqual(['USER']);
  expect(await views()).toBe(1);
  const raw = await download(`/r/${name}`);
  expect(raw.bytes).toEqual(PNG_1X1);
  expect(await views()).toBe(2);
  // The view page stays off: /view/ refuses as before.
  expect((await call('GET', `/view/${name}`)).status).toBe(404);
});

test('?download=true is an attachment on /u/ (even with view pages on) and /r/', async () => {
  for (const viewPages of [true, false]) {
    const { name, views } = await uploaded(viewPages);
    for (const path of [`/u/${name}?download=true`, `/r/${name}?download=true`]) {
      const answer = await call('GET', path);
      expect([path, answer.status]).toEqual([path, 200]);
      expect(answer.headers['content-disposition']).toMatch(/^attachment; filename\*?=/);
      expect(answer.bytes).toEqual(PNG_1X1);
    }
    expect(await views()).toBe(2);
  }
});

test('unknown names are 404 on /u/ and /r/, as on /raw/', async () => {
  const unknown = unknownName();
  const raw = await call('GET', `/raw/${unknown}`);
  for (const path of [`/u/${unknown}`, `/r/${unknown}`, `/u/${unknown}?pw=x`]) {
    const answer = await call('GET', path);
    expect([path, answer.status, answer.text]).toEqual([path, 404, raw.text]);
  }
});

describe('?pw= on /u/ and /r/', () => {
  test('right: the page (view pages on) or the file (off), one view; wrong or missing: the 404 of an unknown name', async () => {
    for (const viewPages of [true, false]) {
      const { name, views } = await uploaded(viewPages, { 'x-zipline-password': SECRET });
      const unknown = await call('GET', `/u/${unknownName()}`);
      for (const path of [`/u/${name}`, `/u/${name}?pw=wrong`, `/r/${name}?pw=wrong`]) {
        const refused = await call('GET', path, { sourceIp: '198.51.100.40' });
        expect([path, refused.status, refused.text]).toEqual([path, 404, unknown.text]);
      }
      const right = await call('GET', `/u/${name}?pw=${encodeURIComponent(SECRET)}`);
      expect(right.status).toBe(200);
      expect(right.headers['content-type']).toBe(viewPages ? 'text/html; charset=utf-8' : 'image/png');
      expect(await views()).toBe(1);
      expect((await download(`/r/${name}?pw=${encodeURIComponent(SECRET)}`)).bytes).toEqual(PNG_1X1);
      expect(await views()).toBe(2);
    }
  });

  test('a browser gets the password form, which posts to the link and opens it (view pages off: the file)', async () => {
    const { name, views } = await uploaded(false, { 'x-zipline-password': SECRET });
    const form = await call('GET', `/u/${name}`, { headers: BROWSER });
    expect(form.status).toBe(404);
    expect(form.text).toMatch(/<form method="post">/);
    const post = (password: string) =>
      call('POST', `/u/${name}`, {
        headers: { ...BROWSER, 'content-type': 'application/x-www-form-urlencoded' },
        raw: new URLSearchParams({ password }).toString(),
      });
    const wrong = await post('wrong');
    expect(wrong.status).toBe(404);
    expect(wrong.text).toContain('That password did not open a file at this link.');
    const right = await post(SECRET);
    expect([right.status, right.headers['content-type']]).toEqual([200, 'image/png']);
    expect(await views()).toBe(1);
  });

  test('guesses on /u/ count with those on /raw?pw=: throttled per name, then 429', async () => {
    const { name } = await uploaded(true, { 'x-zipline-password': SECRET });
    const stranger = '198.51.100.41';
    for (let guess = 0; guess < 10; guess++) {
      const path = guess % 2 === 0 ? `/u/${name}?pw=guess${guess}` : `/raw/${name}?pw=guess${guess}`;
      expect((await call('GET', path, { sourceIp: stranger })).status).toBe(404);
    }
    const limited = await call('GET', `/u/${name}?pw=again`, { sourceIp: stranger });
    expect([limited.status, limited.body.error]).toEqual([429, 'too many attempts, try again later']);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // A viewer with the password still gets in (the address's own checks at a throttled name).
    expect(
      (await call('GET', `/u/${name}?pw=${encodeURIComponent(SECRET)}`, { sourceIp: '198.51.100.42' }))
        .status,
    ).toBe(200);
  });
});

test('max views: a /u/ hit counts once, whichever way it answers; the last view is the last', async () => {
  for (const viewPages of [true, false]) {
    const { name, views } = await uploaded(viewPages, { 'x-zipline-max-views': '2' });
    expect((await call('GET', `/u/${name}`)).status).toBe(200);
    expect(await views()).toBe(1);
    expect((await call('GET', `/u/${name}`)).status).toBe(200);
    expect(await views()).toBe(2);
    for (const path of [`/u/${name}`, `/r/${name}`, `/view/${name}`])
      expect([path, (await call('GET', path)).status]).toEqual([path, 404]);
    expect(await views()).toBe(2);
  }
});
