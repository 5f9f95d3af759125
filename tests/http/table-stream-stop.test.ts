import { tableStream } from '../../infra/local/table-stream.ts';
import { call } from '../support/client.ts';
import { upload } from '../support/files.ts';
import { wantTableStream } from '../support/table-stream-wanted.ts';
import { signedInUser } from '../support/users.ts';

wantTableStream();

/**
 * The runner's stream poller at a stop (infra/local/start.ts stops it before DynamoDB Local): the
 * changes made since its last poll reach the view totals then, since the next `npm start` reads the
 * stream from LATEST and would never see them.
 */
test('a stop hands the changes made since the last poll to the view totals', async () => {
  const owner = await signedInUser();
  const [file] = await upload(owner.token, [{ fileName: 'note.txt', type: 'text/plain', content: 'hello' }]);
  const poller = tableStream(process.env.DYNAMODB_ENDPOINT as string, process.env.TABLE_NAME as string, {
    from: 'TRIM_HORIZON',
  });
  // An interval no poll reaches within the test: only the stop can hand the view over.
  const stop = poller.start(3_600_000);
  expect((await call('GET', `/raw/${(file as { name: string }).name}`)).status).toBe(200);

  await stop();

  const stats = await call('GET', '/api/user/stats', { token: owner.token });
  expect(stats.body.views).toBe(1);
});
