import fc from 'fast-check';
import { type DefaultTreeAdapterMap, parseFragment } from 'parse5';
import { highlightLines } from '#shared/view/code/highlight';
import { LANGUAGE_IDS, languageOf } from '#shared/view/code/languages';

type Node = DefaultTreeAdapterMap['node'];

/** The text a browser shows for the markup, and its elements: parse5 is the HTML5 parser browsers implement. */
function read(html: string) {
  const tags: string[] = [];
  const walk = (node: Node): string => {
    if ('tagName' in node) tags.push(node.tagName);
    if (node.nodeName === '#text') return (node as DefaultTreeAdapterMap['textNode']).value;
    return 'childNodes' in node ? node.childNodes.map(walk).join('') : '';
  };
  const text = walk(parseFragment(`<pre><code>${html}</code></pre>`) as unknown as Node);
  return { text, tags };
}

/** Code-like text: the characters grammars and HTML care about, and newlines. */
const code = fc.string({
  unit: fc.constantFrom(...'<>&"\'`/*#{}()[];:=$\\\n\t abcXYZ019'.split('')),
  maxLength: 200,
});

test.each(LANGUAGE_IDS)('%s: any text comes back whole, one span per line, only spans', (language) => {
  fc.assert(
    fc.property(code, (text) => {
      const html = highlightLines(text, language);
      const { text: shown, tags } = read(html);
      // Every line ends with its newline; a text without a final one gains just that.
      expect(shown).toBe(text.endsWith('\n') || text === '' ? text || '\n' : `${text}\n`);
      expect(new Set(tags)).toEqual(new Set(['pre', 'code', 'span']));
      const lines = text === '' ? 1 : text.replace(/\n$/, '').split('\n').length;
      expect(html.match(/<span class="l">/g)).toHaveLength(lines);
    }),
    { numRuns: 60 },
  );
});

test('a token that ends with its newline (a diff line) ends the line it is on and starts none', () => {
  const html = highlightLines('<\n> b\n', 'diff');
  expect(html.match(/<span class="l">/g)).toHaveLength(2);
  expect(read(html).text).toBe('<\n> b\n');
});

test('the language comes from the extension first, then the type; unknown is none', () => {
  expect(languageOf('main.ts', 'video/mp2t')?.id).toBe('typescript');
  expect(languageOf('Dockerfile', 'text/plain')?.id).toBe('docker');
  expect(languageOf('notes', 'application/json')?.id).toBe('json');
  expect(languageOf('x.YML', 'text/plain')?.label).toBe('YAML');
  expect(languageOf('notes.txt', 'text/plain')).toBeUndefined();
  expect(languageOf('x.unknown', 'application/octet-stream')).toBeUndefined();
});
