import { call } from '../support/client.ts';
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
