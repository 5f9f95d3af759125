import { call } from '../support/client.ts';
import { download, upload } from '../support/files.ts';
import { signedInUser } from '../support/users.ts';

/** `GET /api/user/files/{id}/raw`: the dashboard's previews and "open", which must not use up views. */
test('the owner reads the bytes without counting a view, even past maxViews; others get 404', async () => {
  const owner = await signedInUser();
  const stranger = await signedInUser();
  const content = Buffer.from('one public download of this');
  const [file] = await upload(owner.token, [{ fileName: 'limited.txt', type: 'text/plain', content }], {
    'x-zipline-max-views': '1',
  });
  const id = file?.id as string;

  for (const auth of [{ cookie: owner.cookie }, { token: owner.token }, { cookie: owner.cookie }]) {
    // A small file is answered by the route itself, text with its charset.
    const served = await call('GET', `/api/user/files/${id}/raw`, auth);
    expect([served.status, served.headers['content-type']]).toEqual([200, 'text/plain; charset=utf-8']);
    expect(served.bytes.equals(content)).toBe(true);
  }
  const head = await call('HEAD', `/api/user/files/${id}/raw`, { token: owner.token });
  expect([head.status, head.headers['content-length'], head.text]).toEqual([200, String(content.length), '']);
  expect((await call('GET', `/api/user/files/${id}`, { token: owner.token })).body.views).toBe(0);

  // The public link still has its one view, then the owner's route keeps working.
  expect((await download(file?.url as string)).status).toBe(200);
  expect((await download(file?.url as string)).status).toBe(404);
  expect((await call('GET', `/api/user/files/${id}/raw`, { token: owner.token })).status).toBe(200);

  expect((await call('GET', `/api/user/files/${id}/raw`, { token: stranger.token })).status).toBe(404);
  expect((await call('GET', `/api/user/files/${id}/raw`)).status).toBe(401);
  expect((await call('GET', `/api/user/files/not-an-id/raw`, { token: owner.token })).status).toBe(404);
});
