import { call } from '../support/client.ts';
import { upload } from '../support/files.ts';
import { PNG_1X1 } from '../support/pixels.ts';
import { recordSdkCalls } from '../support/sdk-calls.ts';
import { signedInUser } from '../support/users.ts';

const recorder = recordSdkCalls();

describe('authenticated reads cost exactly one GetItem', () => {
  test.each([
    ['/api/user', 'cookie'],
    ['/api/user', 'token'],
    ['/api/user/token', 'cookie'],
    ['/api/user/token', 'token'],
  ] as const)('GET %s with a %s', async (path, via) => {
    const me = await signedInUser();
    recorder.reset();
    const response = await call('GET', path, via === 'cookie' ? { cookie: me.cookie } : { token: me.token });
    expect(response.status).toBe(200);
    expect(recorder.calls.map((c) => c.command)).toEqual(['GetItemCommand']);
    // Eventually consistent read of a small item: half a read unit.
    expect(recorder.calls[0]?.consumedCapacity).toMatchObject({ CapacityUnits: 0.5 });
  });

  test('a refused token is decided without reading the table', async () => {
    recorder.reset();
    expect((await call('GET', '/api/user', { token: 'test.someone.nonce.badsignature' })).status).toBe(401);
    expect(recorder.calls).toEqual([]);
  });
});

describe('a view page costs two reads and the view count', () => {
  test('GET /view/{name}: the name claim, the owner with the file in one batch, the count and no other write', async () => {
    const owner = await signedInUser();
    await call('PATCH', '/api/user', { token: owner.token, json: { view: { enabled: true, embed: true } } });
    const [file] = await upload(owner.token, [{ fileName: 'a.png', type: 'image/png', content: PNG_1X1 }]);
    for (const views of [1, 2]) {
      recorder.reset();
      expect((await call('GET', `/view/${file?.name}`)).status).toBe(200);
      // The count on the file's item, its only write (the owner's totals follow from the table's stream).
      expect(recorder.calls.map((c) => c.command)).toEqual([
        'GetItemCommand',
        'BatchGetItemCommand',
        'UpdateItemCommand',
      ]);
      expect((await call('GET', `/api/user/files/${file?.id}`, { token: owner.token })).body.views).toBe(
        views,
      );
    }
    // The count keeps the views order right: the file sorts by its new count.
    const byViews = await call('GET', '/api/user/files?sortBy=views&order=desc', { token: owner.token });
    expect(byViews.body.page[0].views).toBe(2);
    // HEAD and the oEmbed answer read the same and write nothing.
    for (const [method, path] of [
      ['HEAD', `/view/${file?.name}`],
      ['GET', `/api/oembed/${file?.name}`],
    ] as const) {
      recorder.reset();
      expect((await call(method, path)).status).toBe(200);
      expect(recorder.calls.map((c) => c.command)).toEqual(['GetItemCommand', 'BatchGetItemCommand']);
    }
  });
});
