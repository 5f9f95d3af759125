import { call } from '../support/client.ts';
import { download, upload } from '../support/files.ts';
import { multipart } from '../support/multipart.ts';
import { signedInUser } from '../support/users.ts';

type Owner = Awaited<ReturnType<typeof signedInUser>>;
const GREETING = 'Grüße aus Köln — 日本語 ✓\n';
const MiB = 1024 * 1024;

/** A presigned upload (start, PUT with the answer's headers, complete) of `bytes` as `type`. */
async function presigned(owner: Owner, originalName: string, bytes: Buffer, type?: string) {
  const started = await call('POST', '/api/user/files/uploads', {
    token: owner.token,
    json: { originalName, size: bytes.length, ...(type ? { type } : {}) },
  });
  expect(started.status).toBe(200);
  const put = await fetch(started.body.url, { method: 'PUT', headers: started.body.headers, body: bytes });
  expect(put.status).toBe(200);
  const completed = await call('POST', `/api/user/files/uploads/${started.body.id}/complete`, {
    token: owner.token,
  });
  expect(completed.status).toBe(200);
  return {
    started: started.body,
    file: completed.body.files[0] as { id: string; url: string; type: string },
  };
}

/** A one-chunk upload as Zipline's uploader sends it: the chunk's type is what the client claims. */
async function chunked(owner: Owner, fileName: string, bytes: Buffer, type: string) {
  const { body, contentType } = multipart([
    { fileName: 'blob', type: 'application/octet-stream', content: bytes },
  ]);
  const response = await call('POST', '/api/upload', {
    token: owner.token,
    raw: body,
    headers: {
      'content-type': contentType,
      'content-range': `bytes 0-${bytes.length}/${bytes.length}`,
      'x-zipline-p-filename': fileName,
      'x-zipline-p-content-type': type,
      'x-zipline-p-content-length': String(bytes.length),
      'x-zipline-p-lastchunk': 'true',
    },
  });
  expect(response.status).toBe(200);
  return response.body.files[0] as { id: string; url: string; type: string };
}

test('a type sent as application/octet-stream (or not at all) comes from the file name, on every upload path', async () => {
  const owner = await signedInUser();
  const script = Buffer.from('console.log("hi");\n');
  const [direct] = await upload(owner.token, [
    { fileName: 'app.js', type: 'application/octet-stream', content: script },
  ]);
  const [movie] = await upload(owner.token, [
    { fileName: 'clip.mp4', type: 'application/octet-stream', content: 'x' },
  ]);
  const viaChunks = await chunked(owner, 'app.js', script, 'application/octet-stream');
  const viaUrl = await presigned(owner, 'app.js', script);
  const declared = await presigned(owner, 'notes.md', Buffer.from('# hi'), 'application/octet-stream');
  expect([direct?.type, movie?.type, viaChunks.type, viaUrl.file.type, declared.file.type]).toEqual([
    'text/javascript',
    'video/mp4',
    'text/javascript',
    'text/javascript',
    'text/markdown',
  ]);
  // The presigned PUT stays signed for the type the client declared (what it sends); the file is
  // recorded with the type from its name.
  expect(declared.started.headers['content-type']).toBe('application/octet-stream');
  // A real type the client sends is kept; an unknown extension stays application/octet-stream.
  const [claimed] = await upload(owner.token, [{ fileName: 'app.js', type: 'text/plain', content: script }]);
  const [unknown] = await upload(owner.token, [
    { fileName: 'blob.weird-ext', type: 'application/octet-stream', content: 'x' },
  ]);
  expect([claimed?.type, unknown?.type]).toEqual(['text/plain', 'application/octet-stream']);
  const listed = await call('GET', `/api/user/files/${direct?.id}`, { token: owner.token });
  expect(listed.body.type).toBe('text/javascript');
});

test('text is served with charset=utf-8 when its bytes are UTF-8, by /raw and the owner route, small or large', async () => {
  const owner = await signedInUser();
  const [utf8, latin1] = await upload(owner.token, [
    { fileName: 'gruss.txt', type: 'text/plain', content: Buffer.from(GREETING) },
    { fileName: 'latin1.txt', type: 'text/plain', content: Buffer.from('Gr\xfc\xdfe', 'latin1') },
  ]);
  const raw = await download(utf8?.url as string);
  // Served by the service itself: the address stays /raw/<name>.
  expect([raw.redirect.status, raw.response?.headers.get('content-type')]).toEqual([
    200,
    'text/plain; charset=utf-8',
  ]);
  expect(raw.bytes?.toString('utf8')).toBe(GREETING);
  expect(raw.response?.headers.get('content-disposition')).toBe(
    `inline; filename*=UTF-8''${utf8?.url.split('/').pop()}`,
  );
  const owned = await call('GET', `/api/user/files/${utf8?.id}/raw`, { token: owner.token });
  expect([owned.status, owned.headers['content-type'], owned.text]).toEqual([
    200,
    'text/plain; charset=utf-8',
    GREETING,
  ]);
  // Bytes that are not UTF-8 get no charset claim (the browser's own guess beats a wrong one).
  expect((await download(latin1?.url as string)).response?.headers.get('content-type')).toBe('text/plain');
  // The view page: the text in the page (UTF-8 HTML), its link to the whole file with the charset.
  await call('PATCH', '/api/user', { token: owner.token, json: { view: { enabled: true } } });
  const page = await call('GET', `/view/${utf8?.url.split('/').pop()}`);
  expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(page.text).toContain('Grüße aus Köln');
  expect(page.text).toContain('response-content-type=text%2Fplain%3B%20charset%3Dutf-8');
  const latinPage = await call('GET', `/view/${latin1?.url.split('/').pop()}`);
  expect(latinPage.text).toContain('response-content-type=text%2Fplain&');

  // Above the 4 MiB the function answers itself: a redirect, its signed type carrying the charset
  // (decided on the first 64 KiB), the HEAD's too.
  const big = Buffer.alloc(4 * MiB + 10, GREETING);
  const { file } = await presigned(owner, 'big.txt', big, 'text/plain');
  const head = await call('HEAD', `/raw/${file.url.split('/').pop()}`);
  expect(head.status).toBe(302);
  const large = await download(`/raw/${file.url.split('/').pop()}`);
  expect(large.redirect.status).toBe(302);
  const location = new URL(large.redirect.headers.location as string);
  expect(location.searchParams.get('response-content-type')).toBe('text/plain; charset=utf-8');
  expect(Number(location.searchParams.get('X-Amz-Expires'))).toBeLessThanOrEqual(60);
  expect(large.bytes?.equals(big)).toBe(true);
  expect(large.response?.headers.get('content-type')).toBe('text/plain; charset=utf-8');
}, 60_000);

test('a small file of any type is answered by /raw itself; HEAD says its length and reads nothing', async () => {
  const owner = await signedInUser();
  const png = Buffer.from('89504e470d0a1a0a', 'hex');
  const [image, page] = await upload(owner.token, [
    { fileName: 'a.png', type: 'image/png', content: png },
    { fileName: 'page.html', type: 'text/html', content: '<script>alert(1)</script>' },
  ]);
  const path = new URL(image?.url as string).pathname;
  const head = await call('HEAD', path);
  expect([head.status, head.headers['content-type'], head.headers['content-length']]).toEqual([
    200,
    'image/png',
    String(png.length),
  ]);
  const served = await call('GET', path);
  expect([served.status, served.headers['content-type'], served.bytes.equals(png)]).toEqual([
    200,
    'image/png',
    true,
  ]);
  expect(served.headers['cache-control']).toBe('no-store');
  expect(served.headers['x-content-type-options']).toBe('nosniff');
  // Types a browser would run stay attachments of no type, served directly as through S3.
  const html = await call('GET', new URL(page?.url as string).pathname);
  expect([html.headers['content-type'], html.headers['content-disposition']]).toEqual([
    'application/octet-stream',
    `attachment; filename*=UTF-8''${page?.url.split('/').pop()}`,
  ]);
  // ?download=true: an attachment.
  const attachment = await call('GET', `${path}?download=true`);
  expect(attachment.headers['content-disposition']).toMatch(/^attachment;/);
  // Views: each GET counted one, HEAD none.
  expect((await call('GET', `/api/user/files/${image?.id}`, { token: owner.token })).body.views).toBe(2);
});
