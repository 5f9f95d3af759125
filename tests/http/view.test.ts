import { call } from '../support/client.ts';
import { download, expireFile, upload } from '../support/files.ts';
import { PNG_1X1 } from '../support/pixels.ts';
import { signedInUser } from '../support/users.ts';

type User = Awaited<ReturnType<typeof signedInUser>>;

async function viewer(view: Record<string, unknown> = {}): Promise<User> {
  const user = await signedInUser();
  const patch = await call('PATCH', '/api/user', {
    token: user.token,
    json: { view: { enabled: true, ...view } },
  });
  expect(patch.status).toBe(200);
  return user;
}

const pathOf = (url: string) => new URL(url, 'https://localhost').pathname;

/** The value of `attribute` on every `<tag ...>` of the page (the page writes attributes double-quoted). */
function attributes(html: string, tag: string, attribute: string): string[] {
  return [...html.matchAll(new RegExp(`<${tag}\\b[^>]*\\s${attribute}="([^"]*)"`, 'g'))].map((match) =>
    (match[1] as string).replaceAll('&amp;', '&'),
  );
}

async function viewOf(user: User, fileName: string, type: string, content: Buffer, headers = {}) {
  const [file] = await upload(user.token, [{ fileName, type, content }], headers);
  return file as { id: string; name: string; url: string };
}

test('an image shows inline on a script-free page; the page counts one view and its image URL counts none', async () => {
  const user = await viewer();
  const file = await viewOf(user, 'pixel.png', 'image/png', PNG_1X1);
  const page = await call('GET', `/view/${file.name}`);
  expect(page.status).toBe(200);
  expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(page.headers['cache-control']).toBe('no-store');
  expect(page.headers['referrer-policy']).toBe('no-referrer');
  const csp = page.headers['content-security-policy'] as string;
  expect(csp).toMatch(/^default-src 'none'; /);
  expect(csp).not.toMatch(/script-src|unsafe-inline|unsafe-eval/);
  expect(page.text).not.toMatch(/<script|<iframe|<object|<embed/i);

  const [image] = attributes(page.text, 'img', 'src');
  expect(csp).toContain(`img-src ${new URL(image as string).origin}`);
  for (let look = 0; look < 3; look += 1) {
    const bytes = Buffer.from(await (await fetch(image as string)).arrayBuffer());
    expect(bytes.equals(PNG_1X1)).toBe(true);
  }
  const [button] = attributes(page.text, 'a', 'href');
  const saved = await fetch(button as string);
  expect(saved.headers.get('content-disposition')).toMatch(/^attachment;/);
  expect((await call('GET', `/api/user/files/${file.id}`, { token: user.token })).body.views).toBe(1);
});

test('maxViews: 1 allows exactly one look at the page, whatever the page loads; then the /raw 404', async () => {
  const user = await viewer();
  const file = await viewOf(user, 'once.png', 'image/png', PNG_1X1, { 'x-zipline-max-views': '1' });
  const first = await call('GET', `/view/${file.name}`);
  expect(first.status).toBe(200);
  const [image] = attributes(first.text, 'img', 'src');
  expect((await fetch(image as string)).status).toBe(200);
  const [button] = attributes(first.text, 'a', 'href');
  expect((await fetch(button as string)).status).toBe(200);

  const second = await call('GET', `/view/${file.name}`);
  const unknown = await call('GET', '/view/no-such-file.png');
  const raw = await call('GET', `/raw/${file.name}`);
  expect([second.status, unknown.status, raw.status]).toEqual([404, 404, 404]);
  expect(second.text).toBe(raw.text);
  expect(unknown.text).toBe(raw.text);
  expect(second.headers['content-type']).toBe(raw.headers['content-type']);
  expect((await call('GET', `/api/user/files/${file.id}`, { token: user.token })).body.views).toBe(1);
});

test('concurrent views of a maxViews: 2 file: exactly two pages', async () => {
  const user = await viewer();
  const file = await viewOf(user, 'twice.txt', 'text/plain', Buffer.from('hello'), {
    'x-zipline-max-views': '2',
  });
  const pages = await Promise.all(Array.from({ length: 6 }, () => call('GET', `/view/${file.name}`)));
  expect(pages.filter((page) => page.status === 200)).toHaveLength(2);
  expect(pages.filter((page) => page.status === 404)).toHaveLength(4);
});

test('HEAD answers like GET and counts nothing', async () => {
  const user = await viewer();
  const file = await viewOf(user, 'head.png', 'image/png', PNG_1X1, { 'x-zipline-max-views': '1' });
  const head = await call('HEAD', `/view/${file.name}`);
  expect(head.status).toBe(200);
  expect(head.text).toBe('');
  expect(head.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(Number(head.headers['content-length'])).toBeGreaterThan(0);
  expect((await call('GET', `/view/${file.name}`)).status).toBe(200);
  expect((await call('HEAD', `/view/${file.name}`)).status).toBe(404);
});

test('view pages off (the default, or enabled: false): 404 as for an unknown name, no view counted', async () => {
  const off = await signedInUser();
  const file = await viewOf(off, 'off.png', 'image/png', PNG_1X1);
  const unknown = await call('GET', '/view/no-such-file.png');
  const page = await call('GET', `/view/${file.name}`);
  expect(page.status).toBe(404);
  expect(page.text).toBe(unknown.text);
  await call('PATCH', '/api/user', { token: off.token, json: { view: { enabled: false } } });
  expect((await call('GET', `/view/${file.name}`)).status).toBe(404);
  expect((await call('GET', `/api/user/files/${file.id}`, { token: off.token })).body.views).toBe(0);
  expect((await download(file.url)).status).toBe(200);
});

test('a file past its deletesAt is 404, and stays so: expired is gone, its owner cannot reopen it', async () => {
  const user = await viewer();
  const file = await viewOf(user, 'soon.png', 'image/png', PNG_1X1);
  const patch = (deletesAt: string | null) =>
    call('PATCH', `/api/user/files/${file.id}`, { token: user.token, json: { deletesAt } });
  await expireFile(user.id, file.id);
  expect((await call('GET', `/view/${file.name}`)).status).toBe(404);
  expect((await patch(null)).status).toBe(404);
  expect((await call('GET', `/view/${file.name}`)).status).toBe(404);
});

test.each([
  ['page.html', 'text/html', '<script>alert(1)</script>'],
  ['drawing.svg', 'image/svg+xml', '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'],
  ['feed.xml', 'application/xml', '<?xml version="1.0"?><a/>'],
  ['data.bin', 'application/x-unknown', 'binary'],
  ['page.xhtml', 'application/xhtml+xml', '<html xmlns="http://www.w3.org/1999/xhtml"/>'],
])('%s (%s) is a download button, never embedded', async (fileName, type, content) => {
  const user = await viewer();
  const file = await viewOf(user, fileName, type, Buffer.from(content));
  const page = await call('GET', `/view/${file.name}`);
  expect(page.status).toBe(200);
  expect(page.text).not.toMatch(/<(iframe|object|embed|img|video|audio|pre)\b/i);
  expect(page.text).not.toContain('alert(1)');
  expect(page.headers['content-security-policy']).toContain("img-src 'none'; media-src 'none'");
  const [button] = attributes(page.text, 'a', 'href');
  const saved = await fetch(button as string);
  expect(saved.headers.get('content-disposition')).toMatch(/^attachment;/);
});

test('video and audio get players', async () => {
  const user = await viewer();
  const video = await viewOf(user, 'clip.mp4', 'video/mp4', Buffer.from('not really a video'));
  const audio = await viewOf(user, 'song.mp3', 'audio/mpeg', Buffer.from('not really audio'));
  const videoPage = await call('GET', `/view/${video.name}`);
  expect(videoPage.text).toMatch(/<video src="[^"]+" controls/);
  expect(videoPage.headers['content-security-policy']).toMatch(/media-src http/);
  const audioPage = await call('GET', `/view/${audio.name}`);
  expect(audioPage.text).toMatch(/<audio src="[^"]+" controls/);
  const [source] = attributes(audioPage.text, 'audio', 'src');
  const played = await fetch(source as string);
  expect(played.headers.get('content-disposition')).toMatch(/^inline;/);
  expect(played.headers.get('content-type')).toBe('audio/mpeg');
});

test('text is shown escaped, line by line, capped at 64 KiB with a link to the whole file', async () => {
  const user = await viewer();
  const small = await viewOf(
    user,
    'note.txt',
    'text/plain',
    Buffer.from('<script>alert("x")</script> &amp; done'),
  );
  const page = await call('GET', `/view/${small.name}`);
  expect(page.text).toContain(
    '<pre><code><span class="l">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp;amp; done\n</span></code></pre>',
  );
  expect(page.text).not.toContain('Open the whole file');

  // 70,000 bytes whose 64 KiB cut falls inside a three-byte character.
  const long = Buffer.from(`${'a'.repeat(65535)}€${'b'.repeat(4462)}`);
  const big = await viewOf(user, 'big.txt', 'text/plain', long);
  const bigPage = await call('GET', `/view/${big.name}`);
  const shown = /<span class="l">([^<]*)\n<\/span>/.exec(bigPage.text)?.[1] as string;
  expect(shown).toBe('a'.repeat(65535));
  expect(bigPage.text).toContain('Open the whole file</a> (68 KB)');
  const whole = attributes(bigPage.text, 'a', 'href')[0] as string;
  expect(Buffer.from(await (await fetch(whole)).arrayBuffer()).equals(long)).toBe(true);
});

test('align, showMimetype and content follow the owner settings; names and texts are escaped', async () => {
  const user = await viewer({
    align: 'right',
    showMimetype: true,
    content: '<b>{file.name}</b> by {user.username} {file.unknown}',
  });
  const file = await viewOf(user, 'x.txt', 'text/plain', Buffer.from('hi'));
  const page = await call('GET', `/view/${file.name}`);
  expect(page.text).toContain('<main class="right">');
  expect(page.text).toMatch(
    /<p class="meta">2 B · uploaded <time datetime="[^"]+">\d{4}-\d\d-\d\d \d\d:\d\d UTC<\/time> · text\/plain<\/p>/,
  );
  expect(page.text).toContain(
    `<p class="content">&lt;b&gt;${file.name}&lt;/b&gt; by ${user.username} {file.unknown}</p>`,
  );
  expect(pathOf(file.url)).toBe(`/u/${file.name}`);

  await call('PATCH', '/api/user', {
    token: user.token,
    json: { view: { align: null, showMimetype: false, content: null } },
  });
  const plain = await call('GET', `/view/${file.name}`);
  expect(plain.text).toContain('<main class="center">');
  expect(plain.text).not.toContain('text/plain</p>');
  expect(plain.text).not.toContain('class="content"');
});

test('a password-protected file is the 404 of an unknown name on the view page (GET and HEAD), and counts nothing', async () => {
  const user = await viewer();
  const file = await viewOf(user, 'secret.png', 'image/png', PNG_1X1, {
    'x-zipline-password': 'open sesame',
  });
  const unknown = await call('GET', '/view/no-such-file.png');
  const page = await call('GET', `/view/${file.name}`);
  expect(page.status).toBe(404);
  expect(page.text).toBe(unknown.text);
  expect((await call('HEAD', `/view/${file.name}`)).status).toBe(404);
  expect((await call('GET', `/api/user/files/${file.id}`, { token: user.token })).body.views).toBe(0);
  expect((await download(`/raw/${file.name}?pw=open%20sesame`)).status).toBe(200);
});

test('links: uploads and File resources point to /u/{name}, which opens the page while view pages are on, the file otherwise', async () => {
  const user = await signedInUser();
  const [file] = await upload(user.token, [{ fileName: 'a.png', type: 'image/png', content: PNG_1X1 }]);
  const name = file?.name as string;
  expect(file?.url).toBe(`https://localhost/u/${name}`);
  const link = pathOf(file?.url as string);
  expect((await call('GET', link)).headers['content-type']).toBe('image/png');

  await call('PATCH', '/api/user', { token: user.token, json: { view: { enabled: true } } });
  // The link does not change with the setting; what it opens does.
  expect((await call('GET', `/api/user/files/${file?.id}`, { token: user.token })).body.url).toBe(
    `/u/${name}`,
  );
  const patched = await call('PATCH', `/api/user/files/${file?.id}`, {
    token: user.token,
    json: { favorite: true },
  });
  expect(patched.body.url).toBe(`/u/${name}`);
  expect((await call('GET', link)).headers['content-type']).toBe('text/html; charset=utf-8');
});
