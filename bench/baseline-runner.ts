// The runner's own floor: the local server (`createLocalServer`, what `npm start` serves the API
// through) answering every request with the constant baseline handler: HTTP, the payload-2.0 event,
// the handler wrapper, no DynamoDB. Started as the runner is (bundled by infra/local/launch.mjs, plain
// Node); prints `listening <port>`. Its log lines go where the runner's go.
import type { AddressInfo } from 'node:net';
import { createLocalServer } from '../infra/local/server.ts';
import { baselineHandler } from './baseline.ts';

const server = createLocalServer({ dispatch: baselineHandler });
server.listen(0, '127.0.0.1', () => console.log(`listening ${(server.address() as AddressInfo).port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
