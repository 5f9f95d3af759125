import { routes } from '#shared/routes/table';
import { call } from '../support/client.ts';
import { signedInUser } from '../support/users.ts';

describe('routing and the error format', () => {
  test('an unknown path is a 404 error body', async () => {
    const response = await call('GET', '/api/nothing-here');
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ error: 'not found', statusCode: 404 });
    expect(response.headers).toMatchObject({
      'content-type': 'application/json; charset=utf-8',
      'access-control-allow-origin': '*',
    });
  });

  test('a known path with a wrong method is a 405 naming the allowed methods', async () => {
    const response = await call('DELETE', '/api/user');
    expect(response.status).toBe(405);
    expect(response.body).toEqual({ error: 'method not allowed', statusCode: 405 });
    expect(response.headers.allow).toBe('GET, HEAD, PATCH');
  });

  test('a malformed percent-encoding in the path is a 404, not a crash', async () => {
    expect((await call('GET', '/api/%E0%A4%A')).status).toBe(404);
  });

  test.each(routes.map((route) => [route.method, route.path]))(
    'OPTIONS %s %s is a CORS preflight answer',
    async (_, path) => {
      const response = await call('OPTIONS', path, {
        headers: { origin: 'https://dashboard.example', 'access-control-request-method': 'PATCH' },
      });
      expect(response.status).toBe(204);
      expect(response.headers['access-control-allow-origin']).toBe('*');
      expect(response.headers['access-control-allow-headers']).toContain('authorization');
    },
  );

  test('every response, success or error, carries the CORS and nosniff headers', async () => {
    const me = await signedInUser();
    for (const response of [
      await call('GET', '/api/user', { cookie: me.cookie }),
      await call('GET', '/api/user'),
      await call('GET', '/api/setup'),
      await call('POST', '/api/auth/login', { raw: '{' }),
    ]) {
      expect(response.headers['access-control-allow-origin']).toBe('*');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  test('header names are matched case-insensitively (sam local does not lowercase them)', async () => {
    const me = await signedInUser();
    expect((await call('GET', '/api/user', { headers: { AUTHORIZATION: me.token } })).status).toBe(200);
    const login = await call('POST', '/api/auth/login', {
      raw: JSON.stringify({ username: me.username, password: me.password }),
      headers: { 'Content-Type': 'application/json; charset=utf-8' },
    });
    expect(login.status).toBe(200);
  });

  test('a body over the default route limit is a 413', async () => {
    const response = await call('POST', '/api/auth/login', {
      json: { username: 'a', password: 'x'.repeat(20_000) },
    });
    expect(response.status).toBe(413);
    expect(response.body).toEqual({
      error: 'request body is too large: the limit is 16384 bytes',
      statusCode: 413,
    });
  });

  test('JSON nested deeper than the limit is a 400 before parsing', async () => {
    const response = await call('POST', '/api/auth/login', { raw: `${'['.repeat(50)}${']'.repeat(50)}` });
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('JSON body is nested too deeply');
  });
});
