import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Every source path the README and docs/ write in backticks exists, so a moved or renamed file
 * cannot leave its docs pointing at nothing (doc-links.test.ts does the same for links). A path is
 * a whole inline code span that starts with one of the repository's source folders and ends in a
 * source or document extension, or in `/` for a folder: `shared/routes/table.ts`, `infra/local/`.
 * A span written from inside shared/ or functions/ (`users/store.ts`, `user/patch.ts`, as the docs
 * abbreviate) must exist under one of the two.
 *
 * Skipped, and why: fenced code blocks (commands, requests, templates: their paths are not
 * references to read); spans with a placeholder (`functions/<area>/`, `shared/{users,files}`,
 * `gsi2…gsi10`), which name no one file; bare file names (`store.ts`), which the sentence around
 * them places; spans that also hold other words (`npm run bench -- bench/x.ts`); other extensions
 * and build output (`web/dist/`, `bench/results.json`), which a checkout need not hold.
 */
const root = join(import.meta.dirname, '..', '..');
const documents = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

const SOURCE_FOLDERS = ['shared', 'functions', 'infra', 'tests', 'web', 'bench'];
/** The folders a span may be written from: shared/'s and functions/' own subfolders. */
const INNER_FOLDERS = ['shared', 'functions'].flatMap((top) =>
  readdirSync(join(root, top), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => ({ top, folder: entry.name })),
);
const PATH = /^[\w.-]+(\/[\w.-]+)*(\.(ts|tsx|mjs|md)|\/)$/;
const PLACEHOLDER = /[<>{}*…]/;
const BUILD_OUTPUT = /^web\/dist\//;

/** The inline code spans of a Markdown text, fenced blocks left out. */
function codeSpans(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, '');
  return [...prose.matchAll(/`([^`\n]+)`/g)].map((match) => match[1] as string);
}

/** Where a span says a file or folder is, or undefined when the span is not a source path. */
function candidates(span: string): string[] | undefined {
  if (!PATH.test(span) || PLACEHOLDER.test(span) || BUILD_OUTPUT.test(span)) return undefined;
  const [first] = span.split('/');
  if (span.includes('/') && SOURCE_FOLDERS.includes(first as string)) return [span];
  const inner = INNER_FOLDERS.filter(({ folder }) => folder === first).map(({ top }) => `${top}/${span}`);
  return span.includes('/') && inner.length > 0 ? inner : undefined;
}

/** The source paths a Markdown text names that exist nowhere in the checkout. */
function stalePaths(markdown: string): string[] {
  return codeSpans(markdown).flatMap((span) => {
    const places = candidates(span);
    return places && !places.some((place) => existsSync(join(root, place))) ? [span] : [];
  });
}

test.each(documents)('the source paths %s names exist', (document) => {
  expect(stalePaths(readFileSync(join(root, document), 'utf8'))).toEqual([]);
});

test('what counts as a source path', () => {
  expect(candidates('shared/routes/table.ts')).toEqual(['shared/routes/table.ts']);
  expect(candidates('infra/local/')).toEqual(['infra/local/']);
  expect(candidates('users/store.ts')).toEqual(['shared/users/store.ts', 'functions/users/store.ts']);
  expect(candidates('shared/keys.ts')).toEqual(['shared/keys.ts']);
  for (const skipped of [
    'functions/<area>/',
    'store.ts',
    'web/dist/',
    'bench/results.json',
    'uploads/',
    'npm test',
  ])
    expect(candidates(skipped)).toBeUndefined();
  expect(codeSpans('`a/b.ts` and\n```\n`c/d.ts`\n```\n')).toEqual(['a/b.ts']);
});

test('the check sees stale paths, whole and abbreviated (files that moved in issue 31)', () => {
  const text =
    'Keys in `shared/keys.ts`, now `shared/secrets.ts`; routes in `shared/routes.ts`, now `shared/routes/`; ' +
    'sessions in `users/sessions.ts`, now `users/sign-in/sessions.ts`; handler `user/patch.ts`.';
  expect(stalePaths(text)).toEqual(['shared/keys.ts', 'shared/routes.ts', 'users/sessions.ts']);
});
