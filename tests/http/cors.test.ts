import '../support/allowed-origins.ts';
import { call } from '../support/client.ts';
import { signedInUser } from '../support/users.ts';

// ALLOWED_ORIGINS (support/allowed-origins.ts) lists https://dashboard.example.test: the runner, like
// API Gateway with `-c allowedOrigins`, answers CORS for exactly the listed origins, with credentials.
const ALLOWED = 'https://dashboard.example.test';
const OTHER = 'https://elsewhere.example';

describe('CORS with allowed origins', () => {
  test('a preflight from an allowed origin may send credentials', async () => {
    const response = await call('OPTIONS', '/api/user', {
      headers: { origin: ALLOWED, 'access-control-request-method': 'PATCH' },
    });
    expect(response.status).toBe(204);
    expect(response.headers).toMatchObject({
      'access-control-allow-origin': ALLOWED,
      'access-control-allow-credentials': 'true',
      vary: 'origin',
    });
    expect(response.headers['access-control-allow-methods']).toContain('PATCH');
  });

  test('a cookie-authenticated write from an allowed origin is answered to that origin', async () => {
    const me = await signedInUser();
    const response = await call('PATCH', '/api/user/token', {
      cookie: me.cookie,
      headers: { origin: ALLOWED, 'sec-fetch-site': 'same-site' },
    });
    expect(response.status).toBe(200);
    expect(response.headers['access-control-allow-origin']).toBe(ALLOWED);
    expect(response.headers['access-control-allow-credentials']).toBe('true');
  });

  test('any other origin gets no CORS answer, so its page cannot read the response', async () => {
    const preflight = await call('OPTIONS', '/api/user', {
      headers: { origin: OTHER, 'access-control-request-method': 'PATCH' },
    });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    const me = await signedInUser();
    const read = await call('GET', '/api/user', { token: me.token, headers: { origin: OTHER } });
    expect(read.status).toBe(200);
    expect(read.headers['access-control-allow-origin']).toBeUndefined();
    expect(read.headers['access-control-allow-credentials']).toBeUndefined();
  });

  test('clients that are not browsers (no Origin) are answered as before', async () => {
    const me = await signedInUser();
    const response = await call('GET', '/api/user', { token: me.token });
    expect(response.status).toBe(200);
    expect(response.headers['access-control-allow-origin']).toBe('*');
  });
});
