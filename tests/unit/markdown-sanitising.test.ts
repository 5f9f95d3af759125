import fc from 'fast-check';
import { type DefaultTreeAdapterMap, parseFragment } from 'parse5';
import { renderMarkdown } from '#shared/view/markdown/render';

type Node = DefaultTreeAdapterMap['node'];
type Element = DefaultTreeAdapterMap['element'];

/** The usual XSS vectors, each as a Markdown file might carry it. */
const HOSTILE: Record<string, string> = {
  'script tag': '<script>alert(1)</script>',
  'script in a heading': '# title <script>alert(1)</script>',
  'javascript: link': '[click](javascript:alert(1))',
  'javascript: link, mixed case': '[click](JaVaScRiPt:alert(1))',
  'javascript: link, tab in the scheme': '[click](java\tscript:alert(1))',
  'javascript: link, leading control character': '[click](\u0001javascript:alert(1))',
  'javascript: link, entity-encoded': '[click](&#106;avascript:alert(1))',
  'javascript: link, hex entities': '[click](&#x6A;&#x61;vascript&#x3A;alert(1))',
  'javascript: link, colon entity': '[click](javascript&colon;alert(1))',
  'javascript: link, angle brackets': '[click](<javascript:alert(1)>)',
  'javascript: reference link': '[click][x]\n\n[x]: javascript:alert(1)',
  'vbscript: link': '[click](vbscript:msgbox(1))',
  'data: link': '[click](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
  'file: link': '[click](file:///etc/passwd)',
  'javascript: autolink': '<javascript:alert(1)>',
  'data: autolink': '<data:text/html,<script>alert(1)</script>>',
  'javascript: in a link title': '[click](https://example.com "\\" onmouseover=\\"alert(1)")',
  'image with onerror': '<img src=x onerror=alert(1)>',
  'markdown image, javascript: source': '![x](javascript:alert(1))',
  'markdown image, data: source': '![x](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)',
  'markdown image, alt breaking out': '![x" onerror="alert(1)](https://example.com/a.png)',
  'raw HTML block with handlers': '<div onclick="alert(1)">\n\n*hi*\n\n</div>',
  'raw HTML inline anchor': 'see <a href="javascript:alert(1)">this</a>',
  'SVG with onload': '<svg onload=alert(1)><circle r="1"/></svg>',
  'SVG with a script': '<svg><script>alert(1)</script></svg>',
  'style tag': '<style>body{background:url(javascript:alert(1))}</style>',
  'style attribute': '<p style="background:url(javascript:alert(1))">x</p>',
  iframe: '<iframe src="javascript:alert(1)"></iframe>',
  'iframe srcdoc': '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  'object and embed': '<object data="x.swf"></object><embed src="x.swf">',
  'form posting elsewhere': '<form action="https://evil.example"><button>go</button></form>',
  'meta refresh': '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  'base href': '<base href="javascript:alert(1)//">',
  'HTML comment hiding a tag': '<!-- --><script>alert(1)</script>',
  'pre raw block': '<pre>\n<img src=x onerror=alert(1)>\n</pre>',
  'textarea breakout': '<textarea><img src=x onerror=alert(1)></textarea>',
  'code fence with a hostile language': '```"><script>alert(1)</script>\nx\n```',
  'code fence with markup inside': '```html\n<script>alert(1)</script>\n```',
  'table cell with markup': '| a |\n|---|\n| <img src=x onerror=alert(1)> |',
  'link text with markup': '[<img src=x onerror=alert(1)>](https://example.com)',
  'nested brackets': '[a](https://example.com)[b](javascript:alert(1))',
  'unicode escapes': '[click](\\u006aavascript:alert(1))',
};

/** What the renderer may write: elements, and per element the attributes they may carry. */
const ALLOWED: Record<string, Set<string>> = {
  ...Object.fromEntries(
    'p h1 h2 h3 h4 h5 h6 em strong del code pre ul ol li blockquote hr br table thead tbody tr article span'
      .split(' ')
      .map((tag) => [tag, new Set<string>()]),
  ),
  a: new Set(['href', 'title', 'rel', 'class']),
  img: new Set(['src', 'alt', 'title', 'loading']),
  th: new Set(['align']),
  td: new Set(['align']),
  ol: new Set(['start']),
  input: new Set(['type', 'checked', 'disabled']),
  pre: new Set(['class']),
  span: new Set(['class']),
};

function elements(node: Node): Element[] {
  const children = 'childNodes' in node ? node.childNodes : [];
  const own = 'tagName' in node ? [node as Element] : [];
  return [...own, ...children.flatMap(elements)];
}

/** The rendered HTML as a browser parses it (parse5 is the HTML5 tokenizer browsers implement). */
function parsed(html: string) {
  return elements(parseFragment(html) as unknown as Node);
}

/** Checks rendered Markdown against the allow-list, as a browser would parse it. */
function expectOnlyAllowed(html: string) {
  for (const element of parsed(html)) {
    expect(ALLOWED).toHaveProperty(element.tagName);
    for (const { name, value } of element.attrs) {
      expect([element.tagName, name, ALLOWED[element.tagName]?.has(name)]).toEqual([
        element.tagName,
        name,
        true,
      ]);
      if (name === 'href') expect(value).toMatch(/^(https?:\/\/|mailto:|#)/);
      if (name === 'src') expect(value).toMatch(/^https:\/\//);
      if (name === 'type') expect(value).toBe('checkbox');
    }
  }
}

describe.each([false, true])('hostile Markdown, remote images %s', (remoteImages) => {
  test.each(Object.entries(HOSTILE))('%s', (_, source) => {
    const html = renderMarkdown(source, { remoteImages });
    expectOnlyAllowed(html);
    // Whatever the markup, no script runs: no script, style or frame element, no handler, no script
    // URL (hostile text stays, escaped, as text: `onerror=` in a paragraph is harmless).
    expect(html).not.toMatch(/<(script|style|iframe|object|embed|svg|form|meta|base|textarea)\b/i);
    const attributes = parsed(html).flatMap((element) => element.attrs);
    expect(attributes.filter(({ name }) => /^on/i.test(name))).toEqual([]);
    expect(attributes.filter(({ value }) => /^\s*(javascript|vbscript|data|file):/i.test(value))).toEqual([]);
  });
});

/** Markdown-ish text from the pieces attacks are made of. */
const pieces = fc.constantFrom(
  ...'< > " \' ` [ ] ( ) ! * _ # | - : & ; \\ = on javascript data &#106; ``` https://x.example/'.split(' '),
  '\n',
  ' ',
  '<img src=x onerror=alert(1)>',
  '<script>',
);

test('any text from those pieces renders only allowed elements, attributes and URLs', () => {
  fc.assert(
    fc.property(fc.array(pieces, { maxLength: 60 }), fc.boolean(), (parts, remoteImages) => {
      expectOnlyAllowed(renderMarkdown(parts.join(''), { remoteImages }));
    }),
    { numRuns: 300 },
  );
});

test('links to web pages and mail stay links; everything else is its text', () => {
  const html = renderMarkdown(
    '[web](https://example.com/a?b=1&c=2) [mail](mailto:a@example.com) [frag](#usage) [rel](docs/x.md) [js](javascript:alert(1))',
    { remoteImages: false },
  );
  expect(html).toBe(
    '<p><a href="https://example.com/a?b=1&amp;c=2" rel="nofollow noopener noreferrer">web</a> ' +
      '<a href="mailto:a@example.com" rel="nofollow noopener noreferrer">mail</a> ' +
      '<a href="#usage" rel="nofollow noopener noreferrer">frag</a> rel js</p>\n',
  );
});

test('remote images are links unless the owner allows them, and then only over https', () => {
  const source = '![cat](https://img.example/cat.png) ![plain](http://img.example/dog.png)';
  expect(renderMarkdown(source, { remoteImages: false })).toBe(
    '<p><a class="image-link" href="https://img.example/cat.png" rel="nofollow noopener noreferrer">Image: cat</a> plain</p>\n',
  );
  expect(renderMarkdown(source, { remoteImages: true })).toBe(
    '<p><img src="https://img.example/cat.png" alt="cat" loading="lazy"> plain</p>\n',
  );
});

test('Markdown still renders: headings, lists, tables, task lists, highlighted code fences', () => {
  const html = renderMarkdown(
    '# Title\n\n- a\n- [x] done\n\n| k | v |\n|:--|--:|\n| 1 | 2 |\n\n```py\ndef f(): pass\n```\n',
    { remoteImages: false },
  );
  expect(html).toContain('<h1>Title</h1>');
  expect(html).toContain('<li><input checked="" disabled="" type="checkbox"> done</li>');
  expect(html).toContain('<th align="left">k</th>');
  expect(html).toContain('<span class="t-keyword">def</span> <span class="t-function">f</span>');
});
