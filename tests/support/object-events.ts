import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createObjectEventFeed } from '../../infra/local/object-events.ts';
import { startS3Local } from '../../infra/local/s3.ts';

/**
 * For test files whose uploads must reach the functions S3 starts (the thumbnail function): an S3
 * server of this test file's own, in this worker, wired to the local event feed as the runner wires
 * its own (the run's shared S3 server lives in jest's parent process, where no event could reach this
 * worker's handlers). Import it before anything loads the S3 client: it points S3_ENDPOINT here.
 */
const s3 = await startS3Local({
  directory: mkdtempSync(join(tmpdir(), 'file-service-events-s3-')),
  bucketName: process.env.BUCKET_NAME as string,
});
process.env.S3_ENDPOINT = s3.endpoint;

export const feedLog: string[] = [];
export const objectEvents = createObjectEventFeed((line) => feedLog.push(line));
s3.onObjectEvent((event) => objectEvents.handle(event));

afterAll(async () => {
  await objectEvents.settled();
  await s3.stop();
});
