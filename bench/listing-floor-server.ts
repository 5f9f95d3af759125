// The file list's floor: a plain `node:http` server that makes the reads the first page of
// `GET /api/user/files` makes (the user item, then `listFiles`: the counters, the expired files and
// the page, through the service's own code and DynamoDB client) and answers the page's ids, with no
// API Gateway event, handler wrapper, token check, query parsing, file presentation or log line.
// Started like the runner (bundled by infra/local/launch.mjs) against the runner's DynamoDB Local.
// Environment: DYNAMODB_ENDPOINT, TABLE_NAME, FLOOR_USER_ID; prints `listening <port>`.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getItem } from '#shared/db/client';
import { userKey } from '#shared/db/keys/users';
import { type ListOptions, listFiles } from '#shared/files/listing/listing';

const userId = process.env.FLOOR_USER_ID ?? '';
/** What `?page=1&perpage=9` reads as. */
const FIRST_PAGE: ListOptions = {
  sortBy: 'createdAt',
  order: 'desc',
  filter: 'all',
  favoriteOnly: false,
  perpage: 9,
  page: 1,
};

const server = createServer(async (_request, response) => {
  const user = await getItem(userKey(userId));
  const { files, total } = await listFiles(userId, FIRST_PAGE);
  response.writeHead(user ? 200 : 404, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ ids: files.map((file) => file.id), total }));
});
server.listen(0, '127.0.0.1', () => console.log(`listening ${(server.address() as AddressInfo).port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
