import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { call, cookieValue, type TestResponse } from './client.ts';

/**
 * A real OpenID Connect provider (oauth2-mock-server) in a process of its own
 * (`oidc-provider.mjs`): discovery, JWKS, the authorization endpoint (which signs the user in at once
 * and redirects back with a code and the state) and a token endpoint issuing RS256-signed ID tokens
 * with the nonce of the authorization request. It checks PKCE: a code is redeemed once, with its
 * verifier.
 */
export interface OidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The next sign-ins' account (`sub` and `preferred_username` of its ID tokens). */
  signInAs: (account: { sub: string; username: string }) => Promise<void>;
  /** Changes claims of the next ID token only (a wrong nonce, issuer or audience). */
  tamperNextIdToken: (claims: Record<string, unknown>) => Promise<void>;
  /** The runner's environment for this provider. */
  env: (extra?: Record<string, string>) => Record<string, string>;
  stop: () => Promise<void>;
}

const script = fileURLToPath(new URL('./oidc-provider.mjs', import.meta.url));

function nextMessage(child: ChildProcess): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`OIDC provider exited with ${code}`));
    child.once('exit', onExit);
    child.once('message', (message) => {
      child.off('exit', onExit);
      resolve(message as Record<string, unknown>);
    });
  });
}

export async function startOidcProvider(): Promise<OidcProvider> {
  const clientId = 'file-service-test';
  const clientSecret = 'test-client-secret';
  const child = fork(script, [clientId], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const { issuer } = (await nextMessage(child)) as { issuer: string };
  const tell = async (message: Record<string, unknown>) => {
    const answer = nextMessage(child);
    child.send(message);
    await answer;
  };
  return {
    issuer,
    clientId,
    clientSecret,
    signInAs: (account) => tell({ signInAs: account }),
    tamperNextIdToken: (claims) => tell({ tamper: claims }),
    env: (extra = {}) => ({
      OAUTH_OIDC_ISSUER: issuer,
      OAUTH_OIDC_CLIENT_ID: clientId,
      OAUTH_OIDC_CLIENT_SECRET: clientSecret,
      OAUTH_OIDC_NAME: 'Test ID',
      ...extra,
    }),
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.disconnect();
      }),
  };
}

/**
 * A browser's part of a sign-in without the page: follows redirects one by one, keeps cookies by
 * name (Max-Age=0 removes one), and shows each hop.
 */
export class BrowserSession {
  readonly cookies = new Map<string, string>();

  constructor(readonly origin: string) {}

  /** One request with the cookies; the response's Set-Cookie headers are applied. */
  async request(url: string, init: RequestInit = {}): Promise<Response> {
    const absolute = new URL(url, this.origin);
    const headers = new Headers(init.headers);
    if (absolute.origin === this.origin && this.cookies.size)
      headers.set('cookie', [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '));
    const response = await fetch(absolute, { ...init, headers, redirect: 'manual' });
    if (absolute.origin === this.origin) {
      for (const setCookie of response.headers.getSetCookie()) {
        const [pair = ''] = setCookie.split(';');
        const name = pair.slice(0, pair.indexOf('='));
        if (/Max-Age=0/i.test(setCookie)) this.cookies.delete(name);
        else this.cookies.set(name, pair.slice(pair.indexOf('=') + 1));
      }
    }
    return response;
  }

  /** A JSON request from the dashboard's own page (its Origin), as the dashboard's fetches send it. */
  send(url: string, method: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
    return this.request(url, {
      method,
      headers: {
        origin: this.origin,
        'sec-fetch-site': 'same-origin',
        'content-type': 'application/json',
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  }

  /**
   * A link from settings as the dashboard makes it: `POST /api/auth/oauth/{provider}` with the session,
   * then the browser goes to the `url` it answers and follows the redirects back.
   */
  async link(provider: string): Promise<{ location: string | undefined }> {
    const start = await this.send(`/api/auth/oauth/${provider}`, 'POST');
    if (start.status !== 200)
      throw new Error(`the link start answered ${start.status}: ${await start.text()}`);
    const { url } = (await start.json()) as { url: string };
    return this.navigate(url);
  }

  /** Follows redirects from `url` while they leave the dashboard's pages; returns every hop's URL and the last. */
  async navigate(url: string): Promise<{ hops: string[]; last: Response; location: string | undefined }> {
    const hops: string[] = [];
    let next: string | undefined = new URL(url, this.origin).href;
    let last: Response | undefined;
    while (next) {
      hops.push(next);
      last = await this.request(next);
      const location = last.headers.get('location');
      if (!location) break;
      const target = new URL(location, next);
      // A page of the dashboard (not the API): where a browser would render the app.
      if (target.origin === this.origin && !target.pathname.startsWith('/api/')) {
        return { hops, last, location: target.pathname + target.search };
      }
      next = target.href;
    }
    return { hops, last: last as Response, location: undefined };
  }
}

export interface ProviderSignInOptions {
  /** The browser's session cookie (`name=value`). */
  cookie?: string;
  /** A link from settings (`POST /api/auth/oauth/oidc` with the session) instead of a sign-in. */
  link?: boolean;
  /** Sends the service's requests (the grants test's attributes them to their functions). */
  send?: typeof call;
  /** Takes the provider's answer to `/callback` rather than the path it names (the start's own). */
  viaCallbackPath?: boolean;
}

/**
 * A sign-in at the provider as `account` through the route table's handlers in this process: the
 * start, the provider's authorization endpoint (over HTTP), then the callback with the flow cookie.
 */
export async function providerSignIn(
  provider: OidcProvider,
  account: { sub: string; username: string },
  options: ProviderSignInOptions = {},
): Promise<TestResponse> {
  await provider.signInAs(account);
  const { cookie, send = call } = options;
  const start = options.link
    ? await send('POST', '/api/auth/oauth/oidc', { cookie })
    : await send('GET', '/api/auth/oauth/oidc', { cookie });
  if (start.status !== (options.link ? 200 : 302))
    throw new Error(`the start answered ${start.status}: ${start.text}`);
  const providerUrl = options.link ? (start.body.url as string) : (start.headers.location as string);
  const authorize = await fetch(providerUrl, { redirect: 'manual' });
  const callback = new URL(authorize.headers.get('location') as string);
  const flow = cookieValue(start.cookies[0]);
  const path = options.viaCallbackPath ? `${callback.pathname}/callback` : callback.pathname;
  return send('GET', path + callback.search, { cookie: cookie ? `${cookie}; ${flow}` : flow });
}
