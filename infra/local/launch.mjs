// Runs a TypeScript entry of the local runner (default: start.ts) as one esbuild bundle in plain
// Node: no TypeScript loader thread in the serving process (about 35 MB less), dependencies loaded
// from node_modules as usual. `npm start` and the tests that start the runner both come through here.
import { unlinkSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('../..', import.meta.url));
const entry = resolve(process.argv[2] ?? join(root, 'infra', 'local', 'start.ts'));
// One file per process, so concurrent runners (a dev server beside a test run) never share one.
const outfile = join(
  root,
  'node_modules',
  '.cache',
  'file-service',
  `${basename(entry, '.ts')}-${process.pid}.mjs`,
);

// The AWS SDK warns once per process on Node below 22 that its releases from January 2027 on will
// need 22. Lambda runs Node 22 (the deployed functions never print it); this process may run on 20
// (the engines range, docs/operations.md), where the notice on every start says nothing new.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

await build({
  entryPoints: [entry],
  outfile,
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Node 20.10+ takes `with { type: 'json' }`; esbuild's node20 target would drop it from external JSON imports.
  supported: { 'import-attributes': true },
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});
process.on('exit', () => {
  for (const file of [outfile, `${outfile}.map`]) {
    try {
      unlinkSync(file);
    } catch {
      // Already gone.
    }
  }
});
// The entry sees its own arguments where it would without the launcher.
process.argv.splice(2, 1);
await import(pathToFileURL(outfile).href);
