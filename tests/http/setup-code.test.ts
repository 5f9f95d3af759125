import { SETUP_CODE_REFUSED } from '#shared/users/setup-code';
import { call } from '../support/client.ts';
import { changedKeys, tableSnapshot } from '../support/snapshot.ts';

// In AWS first-run setup needs the deployment's one-time code (the stack generates it into a secret,
// SETUP_CODE_SECRET_ARN); here it is given inline, as `sam local` or an operator would. This file's
// table starts empty: the tests run in order against the same first-run state.
const CODE = 'Q7fK2mWx9RtLp3VbN8cZ4hYd';
beforeAll(() => {
  process.env.SETUP_CODE = CODE;
});
afterAll(() => {
  delete process.env.SETUP_CODE;
});

const setup = (code?: string) =>
  call('POST', '/api/setup', {
    json: { username: 'first-admin', password: 'first password', ...(code === undefined ? {} : { code }) },
  });

describe('first run with a setup code', () => {
  test('GET /api/setup says a code is needed, so the first-run page asks for it', async () => {
    expect((await call('GET', '/api/setup')).body).toEqual({ firstSetup: true, codeRequired: true });
  });

  test('without the code, or with a wrong one, setup is refused (403) and nothing is written', async () => {
    const before = await tableSnapshot();
    for (const code of [undefined, '', 'wrong', CODE.slice(0, -1), `${CODE}x`, CODE.toLowerCase()]) {
      const response = await setup(code);
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ error: SETUP_CODE_REFUSED, statusCode: 403 });
    }
    expect(changedKeys(before, await tableSnapshot())).toEqual([]);
    expect((await call('GET', '/api/setup')).body).toEqual({ firstSetup: true, codeRequired: true });
  });

  test('with the code (pasted with a trailing newline) the first SUPERADMIN is created, once', async () => {
    const created = await setup(`${CODE}\n`);
    expect(created.status).toBe(200);
    expect(created.body.user.role).toBe('SUPERADMIN');
    expect((await call('GET', '/api/setup')).body).toEqual({ firstSetup: false, codeRequired: false });
    const again = await setup(CODE);
    expect(again.status).toBe(403);
    expect(again.body.error).toBe('setup has already been done');
  });
});
