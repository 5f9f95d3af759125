import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { PROJECT_ROOT } from '../../infra/project-root.ts';

const entry = join(PROJECT_ROOT, 'tests', 'support', 'logs-a-failure.ts');
let outdir: string;

beforeAll(() => {
  outdir = mkdtempSync(join(tmpdir(), 'file-service-maps-'));
});
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

/** The line of `entry` that ends with the given comment. */
const lineOf = (marker: string) =>
  readFileSync(entry, 'utf8')
    .split('\n')
    .findIndex((line) => line.endsWith(`// ${marker}`)) + 1;

test('a logged error names the TypeScript lines of a minified bundle run without --enable-source-maps', async () => {
  // As ServiceFunction bundles a function: one minified ESM file, names kept, the map beside it.
  await build({
    entryPoints: [entry],
    outfile: join(outdir, 'index.mjs'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    minify: true,
    keepNames: true,
    sourcemap: 'linked',
    sourcesContent: false,
    logLevel: 'warning',
  });
  // Plain Node with no flags and an empty environment: what a function gets without NODE_OPTIONS.
  const run = spawnSync(process.execPath, [join(outdir, 'index.mjs')], { env: {}, encoding: 'utf8' });
  // Errors go to stderr (Powertools' console.error), as CloudWatch Logs receives them.
  const logged = JSON.parse(run.stderr.trim()) as {
    error: { message: string; location: string; stack: string };
  };
  expect(logged.error.message).toBe('settings are missing');
  expect(logged.error.location).toBe(`${entry}:${lineOf('the throw')}`);
  const frames = logged.error.stack.split('\n').slice(1);
  expect(frames[0]).toBe(`    at readSettings (${entry}:${lineOf('the throw')}:9)`);
  expect(frames[1]).toBe(`    at startService (${entry}:${lineOf('the call')}:3)`);
  expect(frames[2]).toBe(`    at ${entry}:${lineOf('the entry')}:3`);
  expect(logged.error.stack).not.toContain('index.mjs');
});
