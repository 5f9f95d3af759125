import { call } from '../support/client.ts';
import { upload } from '../support/files.ts';
import { recordSdkCalls } from '../support/sdk-calls.ts';
import { signedInUser } from '../support/users.ts';

const recorder = recordSdkCalls();
// Uploads on a loaded machine: generous, as every timeout here.
const TIMEOUT_MS = 180_000;

const text = (name: string) => ({ fileName: name, type: 'text/plain', content: Buffer.from(`${name}\n`) });

// The default first page reads the counters and the page in one query (shared/files/listing/first-page.ts).
describe('the first page of the file list, newest first', () => {
  test(
    'costs the user item, one query for the counters and the page, and one for the expired files',
    async () => {
      const me = await signedInUser();
      for (const name of ['one.txt', 'two.txt', 'three.txt']) await upload(me.token, [text(name)]);
      recorder.reset();
      const first = await call('GET', '/api/user/files?page=1&perpage=2', { token: me.token });
      expect(first.status).toBe(200);
      expect(recorder.calls.map((recorded) => recorded.command).sort()).toEqual([
        'GetItemCommand',
        'QueryCommand',
        'QueryCommand',
      ]);
      expect(first.body.total).toBe(3);
      expect(first.body.pages).toBe(2);
      expect(first.body.page.map((file: { originalName: string }) => file.originalName)).toEqual([
        'three.txt',
        'two.txt',
      ]);
      const cursor = first.headers['x-next-cursor'];
      expect(cursor).toEqual(expect.any(String));
      const next = await call(
        'GET',
        `/api/user/files?perpage=2&cursor=${encodeURIComponent(cursor as string)}`,
        {
          token: me.token,
        },
      );
      expect(next.body.page.map((file: { originalName: string }) => file.originalName)).toEqual(['one.txt']);
    },
    TIMEOUT_MS,
  );

  test(
    'a page holding every file has no cursor; a user without files gets an empty page',
    async () => {
      const me = await signedInUser();
      const empty = await call('GET', '/api/user/files?page=1&perpage=2', { token: me.token });
      expect(empty.body).toEqual({ page: [], total: 0, pages: 0 });
      expect(empty.headers['x-next-cursor']).toBeUndefined();
      await upload(me.token, [text('only.txt')]);
      const one = await call('GET', '/api/user/files?page=1&perpage=2', { token: me.token });
      expect(one.body.page).toHaveLength(1);
      expect(one.body.total).toBe(1);
      expect(one.headers['x-next-cursor']).toBeUndefined();
    },
    TIMEOUT_MS,
  );
});
