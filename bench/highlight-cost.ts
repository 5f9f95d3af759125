import { readFileSync } from 'node:fs';
import { highlightLines } from '#shared/view/code/highlight';
import { Prism } from '#shared/view/code/prism';

const src = readFileSync('shared/view/file/open.ts', 'utf8') + readFileSync('shared/view/embed.ts', 'utf8');
let text = src;
while (text.length < 65536) text += src;
text = text.slice(0, 65536);
const py =
  'def f(x):\n    """doc"""\n    return [i * 2 for i in range(x) if i % 3]  # comment\n\nclass A(B):\n    pass\n';
let ptext = py;
while (ptext.length < 65536) ptext += py;
ptext = ptext.slice(0, 65536);
const time = (label: string, f: () => unknown) => {
  for (let i = 0; i < 3; i++) f();
  const t = performance.now();
  for (let i = 0; i < 20; i++) f();
  console.log(label, ((performance.now() - t) / 20).toFixed(1), 'ms');
};
time('ts tokenize', () => Prism.tokenize(text, Prism.languages.typescript as never));
time('ts full', () => highlightLines(text, 'typescript'));
time('py tokenize', () => Prism.tokenize(ptext, Prism.languages.python as never));
time('py full', () => highlightLines(ptext, 'python'));
