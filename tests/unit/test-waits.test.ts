import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The tests wait on conditions, never on luck. Playwright's `waitForFunction` does not await a
 * predicate's promise: an async predicate (a `fetch` in the page, say) passes at its first poll
 * whatever it would answer, so the wait waits for nothing. The home page test did that, and reloaded
 * before the views it waited for were counted, on loaded machines only. A test that must wait on
 * the API asks it from the test (as `figuresCounting` in metrics.test.ts and the home test do).
 * Nor does a file leave a test out with `.skip` or `.only`.
 */
const root = join(import.meta.dirname, '..');
const testFiles = readdirSync(root, { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.ts'))
  .map((file) => ({ file, text: readFileSync(join(root, file), 'utf8') }));

const ASYNC_PREDICATE = /waitForFunction\(\s*async\b/;
const LEFT_OUT = /\b(test|it|describe)\.(skip|only)\(/;

test('no waitForFunction is handed an async predicate', () => {
  expect(testFiles.filter(({ text }) => ASYNC_PREDICATE.test(text)).map(({ file }) => file)).toEqual([]);
  expect(ASYNC_PREDICATE.test('page.waitForFunction(\n  async () => (await fetch(url)).ok,')).toBe(true);
  expect(ASYNC_PREDICATE.test('page.waitForFunction(() => document.title === title)')).toBe(false);
});

test('no test is left out with .skip or .only', () => {
  const leaving = testFiles.filter(
    ({ file, text }) => file !== 'unit/test-waits.test.ts' && LEFT_OUT.test(text),
  );
  expect(leaving.map(({ file }) => file)).toEqual([]);
});
