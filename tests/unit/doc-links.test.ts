import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

// Every relative link in the README and docs/ reaches a file that exists and, when it names a
// section, a heading of that file: a page or heading renamed without its links fails here.
const root = join(import.meta.dirname, '..', '..');
const documents = [
  join(root, 'README.md'),
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => join(root, 'docs', name)),
];

/** The text outside fenced code blocks and inline code, where a link is a link. */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, each space a hyphen. */
function slug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/ /g, '-');
}

function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const found = new Set<string>();
  for (const [, heading] of markdown.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6} +(.+?) *$/gm)) {
    const base = slug(heading ?? '');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    found.add(count === 0 ? base : `${base}-${count}`);
  }
  return found;
}

function brokenLinks(file: string): string[] {
  const broken: string[] = [];
  for (const [, target] of prose(readFileSync(file, 'utf8')).matchAll(/\]\(([^)\s]+)\)/g)) {
    if (!target || /^[a-z]+:/i.test(target)) continue;
    const [path = '', anchor] = target.split('#');
    const linked = path ? join(dirname(file), path) : file;
    if (!existsSync(linked)) broken.push(`${target}: no such file`);
    else if (anchor && linked.endsWith('.md') && !anchors(readFileSync(linked, 'utf8')).has(anchor)) {
      broken.push(`${target}: no such heading`);
    }
  }
  return broken;
}

test.each(documents.map((file) => [relative(root, file), file]))('the links in %s resolve', (_, file) => {
  expect(brokenLinks(file)).toEqual([]);
});

test("anchors are GitHub's: code, punctuation and braces dropped, spaces hyphens", () => {
  expect(slug('View pages (`GET /view/{name}`)')).toBe('view-pages-get-viewname');
  expect(slug('A token is not the account: what only a session can do')).toBe(
    'a-token-is-not-the-account-what-only-a-session-can-do',
  );
  expect([...anchors('## Expiry\n```\n# not a heading\n```\n### Expiry\n')]).toEqual(['expiry', 'expiry-1']);
});
