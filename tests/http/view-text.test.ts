import { call } from '../support/client.ts';
import { upload } from '../support/files.ts';
import { recordSdkCalls } from '../support/sdk-calls.ts';
import { signedInUser } from '../support/users.ts';

const recorder = recordSdkCalls();

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

/** Uploads a text file as the dashboard's paste page does (a text type, the language in the name). */
async function pageOf(user: User, fileName: string, content: string, type = 'text/plain') {
  const [file] = await upload(user.token, [{ fileName, type, content: Buffer.from(content) }]);
  const page = await call('GET', `/view/${file?.name}`);
  expect(page.status).toBe(200);
  return page;
}

/** The page's policy: its one stylesheet by hash, no script, no inline style, images as given. */
function expectStrictPolicy(csp: string, images: string) {
  expect(csp).toMatch(/^default-src 'none'; /);
  expect(csp).toMatch(/style-src 'sha256-[A-Za-z0-9+/]+=*'(;|$)/);
  expect(csp).not.toMatch(/script-src|unsafe-inline|unsafe-eval|unsafe-hashes/);
  expect(csp).toContain(`img-src ${images};`);
}

const lines = (html: string) => html.match(/<span class="l">/g)?.length ?? 0;

test.each([
  [
    'typescript',
    'main.ts',
    'const answer: number = 42;\n// a comment\nexport function f() {\n  return `x`;\n}\n',
    5,
    [
      '<span class="t-keyword">const</span>',
      '<span class="t-comment">// a comment</span>',
      '<span class="t-number">42</span>',
    ],
  ],
  [
    'python',
    'script.py',
    'def greet(name):\n    """Say hello."""\n    return f"hi {name}"  # done\n',
    3,
    [
      '<span class="t-keyword">def</span>',
      '<span class="t-function">greet</span>',
      '<span class="t-comment"># done</span>',
    ],
  ],
  [
    'json',
    'data.json',
    '{\n  "name": "x",\n  "n": 1,\n  "ok": true\n}',
    5,
    [
      '<span class="t-property">&quot;name&quot;</span>',
      '<span class="t-number">1</span>',
      '<span class="t-boolean">true</span>',
    ],
  ],
])(
  '%s is highlighted on the server, one numbered line each, under the strict policy',
  async (language, fileName, source, count, spans) => {
    const user = await viewer();
    const page = await pageOf(user, fileName, source);
    expect(page.text).toContain(`<pre class="language-${language}"><code>`);
    for (const span of spans) expect(page.text).toContain(span);
    expect(lines(page.text)).toBe(count);
    // The wrap toggle is a checkbox the stylesheet reads; raw and download are links; no script at all.
    expect(page.text).toContain('<input class="wrap" type="checkbox">Wrap lines</label>');
    expect(page.text).toMatch(/<a href="[^"]+">Raw<\/a> <a href="[^"]+" download>Download<\/a>/);
    expect(page.text).not.toMatch(/<script|\sstyle=|\son\w+=/i);
    expectStrictPolicy(page.headers['content-security-policy'] as string, "'none'");
  },
);

test('a text file of an unknown language is numbered plain text; a type names the language where the name does not', async () => {
  const user = await viewer();
  const plain = await pageOf(user, 'notes.txt', 'one\ntwo <b>\n');
  expect(plain.text).toContain('<span>Plain text</span>');
  expect(plain.text).toContain(
    '<pre><code><span class="l">one\n</span><span class="l">two &lt;b&gt;\n</span></code></pre>',
  );
  const json = await pageOf(user, 'payload', '{"a": 1}', 'application/json');
  expect(json.text).toContain('<span>JSON</span>');
  expect(json.text).toContain('<span class="t-property">&quot;a&quot;</span>');
});

test('code sent as application/octet-stream (curl, ShareX) is shown as its code when the name says which', async () => {
  const user = await viewer();
  const script = await pageOf(user, 'deploy.py', 'import os\nprint(os.name)\n', 'application/octet-stream');
  expect(script.text).toContain('<pre class="language-python"><code>');
  expect(script.text).toContain('<span class="t-keyword">import</span>');
  // A name that is not code keeps the download page.
  const blob = await pageOf(user, 'backup.bin', 'not text at all', 'application/octet-stream');
  expect(blob.text).not.toContain('<pre');
});

test('Markdown is rendered and sanitised; remote images are links until the owner allows them', async () => {
  const user = await viewer();
  const source = [
    '# Read me',
    '',
    'Some *text* with [a link](https://example.com) and [a trap](javascript:alert(1)).',
    '',
    '<img src=x onerror=alert(1)> <script>alert(2)</script>',
    '',
    '![a cat](https://images.example/cat.png)',
  ].join('\n');
  const page = await pageOf(user, 'README.md', source, 'text/markdown');
  expect(page.text).toContain('<article class="markdown">\n<h1>Read me</h1>');
  expect(page.text).toContain('<em>text</em>');
  expect(page.text).toContain(
    '<a href="https://example.com/" rel="nofollow noopener noreferrer">a link</a> and a trap.',
  );
  expect(page.text).toContain('&lt;img src=x onerror=alert(1)&gt; &lt;script&gt;alert(2)&lt;/script&gt;');
  expect(page.text).toContain('<a class="image-link" href="https://images.example/cat.png"');
  expect(page.text).not.toMatch(/<img|<script|javascript:/);
  expectStrictPolicy(page.headers['content-security-policy'] as string, "'none'");

  await call('PATCH', '/api/user', { token: user.token, json: { view: { remoteImages: true } } });
  const allowed = await pageOf(user, 'README.md', source, 'text/markdown');
  expect(allowed.text).toContain('<img src="https://images.example/cat.png" alt="a cat" loading="lazy">');
  expectStrictPolicy(allowed.headers['content-security-policy'] as string, 'https:');
  // A plain text file of the same owner still loads no image.
  const text = await pageOf(user, 'x.txt', '![a cat](https://images.example/cat.png)');
  expectStrictPolicy(text.headers['content-security-policy'] as string, "'none'");
});

test('a Markdown file longer than 64 KiB is rendered in part, with a link to the whole file', async () => {
  const user = await viewer();
  const paragraph = `${'word '.repeat(200)}\n\n`;
  const source = paragraph.repeat(80);
  const page = await pageOf(user, 'long.md', source, 'text/markdown');
  const shown = page.text.match(/<p>word/g)?.length ?? 0;
  expect(shown).toBeGreaterThan(60);
  expect(shown).toBeLessThan(80);
  expect(page.text).toContain('Showing the start of the file. <a href="');
  expect(page.text).toContain('Open the whole file</a> (78 KB)');
});

test('a highlighted page costs what any view page does: two reads and the view count', async () => {
  const user = await viewer();
  const [file] = await upload(user.token, [
    { fileName: 'main.ts', type: 'text/plain', content: Buffer.from('const a = 1;\n'.repeat(6000)) },
  ]);
  recorder.reset();
  const page = await call('GET', `/view/${file?.name}`);
  expect(page.status).toBe(200);
  expect(page.text).toContain('Open the whole file');
  // The count, its only write (the owner's totals follow from the table's stream).
  expect(recorder.calls.map((c) => c.command)).toEqual([
    'GetItemCommand',
    'BatchGetItemCommand',
    'UpdateItemCommand',
  ]);
});
