import { call } from '../support/client.ts';
import { upload } from '../support/files.ts';
import { signedInUser } from '../support/users.ts';

/**
 * View pages stay out of search engines' indexes unless their owner allows it (issue 38):
 * `X-Robots-Tag: noindex` on `/view/{name}` and `/u/{name}`'s page, gone with `allowIndexing`.
 */
async function pageOf(view: Record<string, unknown>) {
  const owner = await signedInUser();
  const patch = await call('PATCH', '/api/user', {
    token: owner.token,
    json: { view: { enabled: true, ...view } },
  });
  expect(patch.status).toBe(200);
  const [file] = await upload(owner.token, [{ fileName: 'notes.txt', content: 'hello' }]);
  return file as { name: string };
}

test('by default a view page says noindex, on both of its paths', async () => {
  const file = await pageOf({});
  for (const path of [`/view/${file.name}`, `/u/${file.name}`]) {
    const page = await call('GET', path, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.headers['x-robots-tag']).toBe('noindex');
  }
});

test('with allowIndexing in the owner view settings, it does not', async () => {
  const file = await pageOf({ allowIndexing: true });
  const page = await call('GET', `/view/${file.name}`, { headers: { accept: 'text/html' } });
  expect(page.status).toBe(200);
  expect(page.headers['x-robots-tag']).toBeUndefined();
});
