import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { streamCheckpoint } from '../../infra/local/stream-checkpoint.ts';
import { tableStream } from '../../infra/local/table-stream.ts';
import { call } from '../support/client.ts';
import { upload } from '../support/files.ts';
import { wantTableStream } from '../support/table-stream-wanted.ts';
import { signedInUser } from '../support/users.ts';

wantTableStream();

/**
 * The runner's stream poller across a stop and a start (infra/local/start.ts, stream-checkpoint.ts):
 * a change made since its last poll reaches the view totals whether the runner stops in order (the
 * stop drains) or is cut off, as a terminal's Ctrl-C cuts off DynamoDB Local with it (the next start
 * resumes after the last record handed over), and a change handed over before is not counted again.
 */
const endpoint = () => process.env.DYNAMODB_ENDPOINT as string;
const table = () => process.env.TABLE_NAME as string;

async function viewedFile() {
  const owner = await signedInUser();
  const [file] = await upload(owner.token, [{ fileName: 'note.txt', type: 'text/plain', content: 'hello' }]);
  const view = async () =>
    expect((await call('GET', `/raw/${(file as { name: string }).name}`)).status).toBe(200);
  const views = async () => (await call('GET', '/api/user/stats', { token: owner.token })).body.views;
  return { view, views };
}

test('a stop hands the changes made since the last poll to the view totals', async () => {
  const { view, views } = await viewedFile();
  // An interval no poll reaches within the test: only the stop can hand the view over.
  const stop = tableStream(endpoint(), table()).start(3_600_000);
  await view();

  await stop();

  expect(await views()).toBe(1);
});

test('a start after a cut-off resumes after the last change handed over: none skipped, none twice', async () => {
  const checkpointFile = join(mkdtempSync(join(tmpdir(), 'stream-checkpoint-')), 'table-stream.json');
  const { view, views } = await viewedFile();
  const first = tableStream(endpoint(), table(), { checkpoint: streamCheckpoint(checkpointFile) });
  await first.drain();
  await view();
  await first.drain();
  expect(await views()).toBe(1);
  // Cut off: the next view is never polled by the first runner.
  await view();

  await tableStream(endpoint(), table(), { checkpoint: streamCheckpoint(checkpointFile) }).drain();

  expect(await views()).toBe(2);
});

test('a first start skips what the stream held before it, and counts every change after the skip', async () => {
  const checkpointFile = join(mkdtempSync(join(tmpdir(), 'stream-checkpoint-')), 'table-stream.json');
  const { view, views } = await viewedFile();
  await view();
  const poller = tableStream(endpoint(), table(), { checkpoint: streamCheckpoint(checkpointFile) });
  await poller.skipHeld();
  // Made after the skip and before the first poll, as a request right after the runner starts is.
  await view();

  await poller.drain();

  expect(await views()).toBe(1);
});
