import { config } from '#shared/config/service';
import { ORIGIN_SECRET_HEADER } from '#shared/http/distribution';
import { NO_RELYING_PARTY } from '#shared/http/origin';
import { toHttpRequest } from '#shared/http/request';
import { call, requestEvent } from '../support/client.ts';
import { upload } from '../support/files.ts';
import { windowTest } from '../support/throttle-window.ts';
import { signedInUser } from '../support/users.ts';

// The API's own URL (execute-api) is open: anyone can call it with the headers the distribution
// sets (x-viewer-host, x-viewer-address). They count only beside the distribution's origin secret
// (shared/http/distribution.ts); forged, they are dropped before any handler reads them.
const ORIGIN_SECRET = 'Zq8'.repeat(12);
beforeAll(() => {
  process.env.ORIGIN_SECRET = ORIGIN_SECRET;
});
afterAll(() => {
  delete process.env.ORIGIN_SECRET;
});

const API_HOST = 'abc123.execute-api.eu-west-1.amazonaws.com';
const EVIL = 'evil.example';
const forged = (secret?: string) => ({
  host: API_HOST,
  'x-viewer-host': EVIL,
  'x-forwarded-proto': 'https',
  ...(secret === undefined ? {} : { [ORIGIN_SECRET_HEADER]: secret }),
});
const WRONG_SECRETS = [undefined, '', 'guess', ORIGIN_SECRET.slice(0, -1), `${ORIGIN_SECRET} `];

describe('a forged x-viewer-host (no origin secret, or a wrong one)', () => {
  test.each(WRONG_SECRETS)(
    'secret %p: cannot pass the cross-site check by naming its own site',
    async (secret) => {
      const me = await signedInUser();
      const response = await call('PATCH', '/api/user/token', {
        cookie: me.cookie,
        headers: { ...forged(secret), origin: `https://${EVIL}`, 'sec-fetch-site': 'same-origin' },
      });
      expect(response.status).toBe(403);
    },
  );

  test('cannot choose the host of the links in answers', async () => {
    const me = await signedInUser();
    for (const secret of WRONG_SECRETS) {
      const [file] = await upload(
        me.token,
        [{ fileName: 'a.txt', type: 'text/plain', content: 'x' }],
        forged(secret),
      );
      expect(file?.url).toMatch(new RegExp(`^https://${API_HOST.replaceAll('.', '\\.')}/u/`));
    }
  });

  test('cannot choose the passkey relying party (without a configured one: 400)', async () => {
    const me = await signedInUser();
    for (const secret of WRONG_SECRETS) {
      const response = await call('POST', '/api/user/passkeys/options', {
        cookie: me.cookie,
        headers: forged(secret),
      });
      expect(response.status).toBe(400);
      expect(response.body.error).toBe(NO_RELYING_PARTY);
    }
    // The distribution's own request names it.
    const verified = await call('POST', '/api/user/passkeys/options', {
      cookie: me.cookie,
      headers: forged(ORIGIN_SECRET),
    });
    expect(verified.status).toBe(200);
    expect(verified.body.rp.id).toBe(EVIL);
  });

  test('the secret itself never reaches a handler (nothing can log or echo it), verified or not', () => {
    for (const secret of [ORIGIN_SECRET, 'guess']) {
      const request = toHttpRequest(requestEvent('GET', '/api/user', { headers: forged(secret) }), {
        bytes: 0,
      });
      expect(request.headers[ORIGIN_SECRET_HEADER]).toBeUndefined();
      expect(request.headers['x-viewer-host']).toBe(secret === ORIGIN_SECRET ? EVIL : undefined);
    }
  });
});

describe('per-address limits count the viewer behind the distribution, the connection otherwise', () => {
  const limit = () => config().throttle.setupPerAddress;
  let counter = 0;
  const fresh = () => `192.0.2.${++counter}`;
  // Setup is open in this file's table and every attempt names a taken username: 400 until the
  // per-address limit, 429 after.
  const attempt = async (username: string, sourceIp: string, headers: Record<string, string>) =>
    (
      await call('POST', '/api/setup', {
        json: { username, password: 'long enough pass' },
        sourceIp,
        headers,
      })
    ).status;

  windowTest('behind one CloudFront edge, each viewer has a limit of its own', async () => {
    const taken = (await signedInUser()).username;
    const edge = fresh();
    const [first, second] = [fresh(), fresh()];
    const viewer = (address: string) => ({
      [ORIGIN_SECRET_HEADER]: ORIGIN_SECRET,
      'x-viewer-address': address,
    });
    for (let i = 0; i < limit(); i++) expect(await attempt(taken, edge, viewer(first))).toBe(400);
    expect(await attempt(taken, edge, viewer(first))).toBe(429);
    expect(await attempt(taken, edge, viewer(second))).toBe(400);
  });

  windowTest('straight to the API, a forged x-viewer-address changes nothing', async () => {
    const taken = (await signedInUser()).username;
    const caller = fresh();
    for (let i = 0; i < limit(); i++)
      expect(
        await attempt(taken, caller, { 'x-viewer-address': fresh(), [ORIGIN_SECRET_HEADER]: 'guess' }),
      ).toBe(400);
    expect(await attempt(taken, caller, { 'x-viewer-address': fresh() })).toBe(429);
  });
});

describe("where a sign-in provider sends the browser back is the configured origin, not a request's", () => {
  const DASHBOARD = 'https://files.example.com';
  beforeAll(() => {
    // Read once, at the first sign-in request of this file (as a function's cold start reads them).
    process.env.OAUTH_GITHUB_CLIENT_ID = 'github-client';
    process.env.PUBLIC_ORIGIN = DASHBOARD;
  });
  afterAll(() => {
    delete process.env.OAUTH_GITHUB_CLIENT_ID;
    delete process.env.PUBLIC_ORIGIN;
  });

  test.each([...WRONG_SECRETS, ORIGIN_SECRET])(
    'secret %p: redirect_uri is on the dashboard origin',
    async (secret) => {
      const started = await call('GET', '/api/auth/oauth/github', { headers: forged(secret) });
      expect(started.status).toBe(302);
      const location = new URL(started.headers.location as string);
      expect(location.origin).toBe('https://github.com');
      expect(location.searchParams.get('redirect_uri')).toBe(`${DASHBOARD}/api/auth/oauth/github`);
    },
  );
});
