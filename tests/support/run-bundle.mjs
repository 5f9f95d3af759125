// Invokes a synthesized Lambda bundle the way the Node.js runtime does: a fresh process imports the
// asset's index.mjs (the Init phase), then calls handler(event) once. Plain JavaScript so plain
// `node` runs it, with no TypeScript loader in between. Writes {result, moduleLoadMs, firstRequestMs}
// to file descriptor 3, leaving stdout to what the function itself logs, as Lambda does.
// Usage: node run-bundle.mjs <asset dir> < event.json 3> result.json
import { writeSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [assetDir] = process.argv.slice(2);
let input = '';
for await (const chunk of process.stdin) input += chunk;
const event = JSON.parse(input);
const importStarted = performance.now();
const { handler } = await import(pathToFileURL(join(assetDir, 'index.mjs')).href);
const imported = performance.now();
// Lambda's context as far as handlers read it: a background function checks the time it has left.
const result = await handler(event, { awsRequestId: 'bundle-run', getRemainingTimeInMillis: () => 900_000 });
const answered = performance.now();
writeSync(
  3,
  JSON.stringify({ result, moduleLoadMs: imported - importStarted, firstRequestMs: answered - imported }),
);
