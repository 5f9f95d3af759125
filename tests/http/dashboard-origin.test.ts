import { ORIGIN_SECRET_HEADER } from '#shared/http/distribution';
import { call } from '../support/client.ts';
import { upload } from '../support/files.ts';
import { signedInUser } from '../support/users.ts';

// Behind the stack's CloudFront distribution, the API sees its own Host; the distribution adds its
// origin secret, and its viewer-request function puts the dashboard's host in x-viewer-host
// (infra/cloudfront). The functions get the secret as ORIGIN_SECRET (read at the first request).
const ORIGIN_SECRET = 'Or1G1nS3cr3tV4lu3-0f-the-D1str1but10n';
beforeAll(() => {
  process.env.ORIGIN_SECRET = ORIGIN_SECRET;
});
afterAll(() => {
  delete process.env.ORIGIN_SECRET;
});

const API_HOST = 'abc123.execute-api.eu-west-1.amazonaws.com';
const DASHBOARD = 'd111111abcdef8.cloudfront.net';
const throughCloudFront = (origin: string, site: string) => ({
  host: API_HOST,
  [ORIGIN_SECRET_HEADER]: ORIGIN_SECRET,
  'x-viewer-host': DASHBOARD,
  'x-forwarded-proto': 'https',
  origin,
  'sec-fetch-site': site,
});

describe('cookie writes from the dashboard served by CloudFront', () => {
  test("pass the cross-site check: the page's origin is the distribution's", async () => {
    const me = await signedInUser();
    const reset = await call('PATCH', '/api/user/token', {
      cookie: me.cookie,
      headers: throughCloudFront(`https://${DASHBOARD}`, 'same-origin'),
    });
    expect(reset.status).toBe(200);
    const login = await call('POST', '/api/auth/login', {
      json: { username: me.username, password: me.password },
      headers: throughCloudFront(`https://${DASHBOARD}`, 'same-origin'),
    });
    expect(login.status).toBe(200);
    expect(login.cookies[0]).toContain('Secure');
  });

  test('file links point at the distribution, where /u/* reaches the API', async () => {
    const me = await signedInUser();
    const [file] = await upload(me.token, [{ fileName: 'a.txt', type: 'text/plain', content: 'x' }], {
      host: API_HOST,
      [ORIGIN_SECRET_HEADER]: ORIGIN_SECRET,
      'x-viewer-host': DASHBOARD,
    });
    expect(file?.url).toMatch(new RegExp(`^https://${DASHBOARD.replaceAll('.', '\\.')}/u/`));
  });

  test('other sites are still refused through the distribution', async () => {
    const me = await signedInUser();
    for (const [origin, site] of [
      ['https://evil.example', 'cross-site'],
      ['https://evil.example', 'none'],
      [`https://${API_HOST}`, 'cross-site'],
    ] as const) {
      const response = await call('PATCH', '/api/user/token', {
        cookie: me.cookie,
        headers: throughCloudFront(origin, site),
      });
      expect(response.status).toBe(403);
    }
  });

  test("the API's own URL keeps working, and the dashboard's origin is not trusted there", async () => {
    const me = await signedInUser();
    const own = await call('PATCH', '/api/user/token', {
      cookie: me.cookie,
      headers: { host: API_HOST, origin: `https://${API_HOST}`, 'sec-fetch-site': 'same-origin' },
    });
    expect(own.status).toBe(200);
    const foreign = await call('PATCH', '/api/user/token', {
      cookie: me.cookie,
      headers: { host: API_HOST, origin: `https://${DASHBOARD}` },
    });
    expect(foreign.status).toBe(403);
    const token = await call('GET', '/api/user', { token: own.body.token, headers: { host: API_HOST } });
    expect(token.status).toBe(200);
  });
});
