// The floor an upload is compared with: a plain `node:http` server that stores each request's body
// as one small file the way `POST /api/upload` must at least: PutObject to an s3rver in this process
// (as the runner holds its own) and the upload's one transaction (`creationWrite`, written by the uploads' writer: the file, its name
// claim, the counters, checked against a live owner), through the service's own clients. No API
// Gateway event, no multipart parsing, no token check, no log line, no S3 event. Started like the
// runner (bundled by infra/local/launch.mjs) against the runner's DynamoDB Local. Environment:
// DYNAMODB_ENDPOINT, TABLE_NAME, FLOOR_USER_ID; prints `listening <port>`.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startS3Local } from '../infra/local/s3.ts';
import { PLAIN_UPLOAD_OPTIONS } from './upload-options.ts';

process.env.BUCKET_NAME ??= 'file-service-files';
const directory = mkdtempSync(join(tmpdir(), 'file-service-upload-floor-'));
const s3 = await startS3Local({
  directory,
  bucketName: process.env.BUCKET_NAME,
});
process.env.S3_ENDPOINT = s3.endpoint;
// Both read their configuration at import: only now.
const { putObject } = await import('#shared/files/bucket/objects');
const { newRecord } = await import('#shared/files/reservation/record');
const { creationWrite } = await import('#shared/files/reservation/creation');
const { write } = await import('#shared/files/reservation/writer');

const userId = process.env.FLOOR_USER_ID ?? '';

const server = createServer(async (request, response) => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const bytes = Buffer.concat(chunks);
  const file = newRecord(
    userId,
    { originalName: 'floor.txt', type: 'text/plain', size: bytes.length },
    PLAIN_UPLOAD_OPTIONS,
  );
  await putObject(file.objectKey, bytes, file.type);
  await write(userId, creationWrite(userId, [file], { maxFiles: undefined, maxBytes: undefined }));
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ files: [{ id: file.id }] }));
});
server.listen(0, '127.0.0.1', () => console.log(`listening ${(server.address() as AddressInfo).port}`));
process.on('SIGTERM', async () => {
  server.closeAllConnections();
  await s3.stop();
  rmSync(directory, { recursive: true, force: true });
  process.exit(0);
});
