// The floor the runner is compared with: a plain `node:http` server that answers every request
// with one user item read through the service's own DynamoDB client (`getItem`, the read every
// authenticated request makes) and nothing else: no API Gateway event, no handler wrapper, no token
// check, no log line. Started like the runner (bundled by infra/local/launch.mjs, plain Node) against
// the runner's DynamoDB Local. Environment: DYNAMODB_ENDPOINT, TABLE_NAME, FLOOR_USER_ID; prints
// `listening <port>`.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getItem } from '#shared/db/client';
import { userKey } from '#shared/db/keys/users';

const key = userKey(process.env.FLOOR_USER_ID ?? '');
const server = createServer(async (_request, response) => {
  const item = await getItem(key);
  response.writeHead(item ? 200 : 404, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ id: item?.id }));
});
server.listen(0, '127.0.0.1', () => console.log(`listening ${(server.address() as AddressInfo).port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
