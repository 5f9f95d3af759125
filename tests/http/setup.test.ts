import { call } from '../support/client.ts';

// This file's table starts empty: the tests run in order against the same first-run state.
describe('first run', () => {
  test('GET /api/setup reports a first setup while no user exists', async () => {
    const response = await call('GET', '/api/setup');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ firstSetup: true, codeRequired: false });
  });

  test('bad input is a 400 and does not complete the setup', async () => {
    for (const json of [
      { username: 'admin' },
      { username: 'admin', password: 'short' },
      { username: '', password: 'long enough' },
    ]) {
      expect((await call('POST', '/api/setup', { json })).status).toBe(400);
    }
    expect((await call('GET', '/api/setup')).body).toEqual({ firstSetup: true, codeRequired: false });
  });

  test('of racing POST /api/setup calls exactly one creates the SUPERADMIN; the rest get 403', async () => {
    const responses = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        call('POST', '/api/setup', { json: { username: `admin${i}`, password: 'first password' } }),
      ),
    );
    const winners = responses.filter((r) => r.status === 200);
    expect(winners).toHaveLength(1);
    expect(winners[0]?.body.user.role).toBe('SUPERADMIN');
    expect(responses.filter((r) => r.status === 403)).toHaveLength(4);
    for (const r of responses.filter((r) => r.status === 403)) {
      expect(r.body).toEqual({ error: 'setup has already been done', statusCode: 403 });
    }
    const login = await call('POST', '/api/auth/login', {
      json: { username: winners[0]?.body.user.username, password: 'first password' },
    });
    expect(login.body.user.role).toBe('SUPERADMIN');
    const losers = responses.flatMap((r, i) => (r.status === 403 ? [`admin${i}`] : []));
    for (const username of losers) {
      expect(
        (await call('POST', '/api/auth/login', { json: { username, password: 'first password' } })).status,
      ).toBe(401);
    }
  });

  test('afterwards GET says so and POST is refused', async () => {
    expect((await call('GET', '/api/setup')).body).toEqual({ firstSetup: false, codeRequired: false });
    const again = await call('POST', '/api/setup', { json: { username: 'late', password: 'late password' } });
    expect(again.status).toBe(403);
  });
});
