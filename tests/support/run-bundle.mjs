// Invokes a synthesized Lambda bundle the way the Node.js runtime does: a fresh process that imports
// the asset's index.mjs and calls handler(event). Plain JavaScript so plain `node` runs it, with no
// TypeScript loader in between. Usage: node run-bundle.mjs <asset dir> < event.json > result.json
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [assetDir] = process.argv.slice(2);
let input = '';
for await (const chunk of process.stdin) input += chunk;
const { handler } = await import(pathToFileURL(join(assetDir, 'index.mjs')).href);
const result = await handler(JSON.parse(input), { awsRequestId: 'bundle-test' });
process.stdout.write(JSON.stringify(result));
