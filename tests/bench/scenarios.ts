import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { hashPassword } from '#shared/auth/password';
import { newSessionId, SESSION_COOKIE, sealSession } from '#shared/auth/session';
import { config } from '#shared/config';
import { routes } from '#shared/routes';
import type { Role } from '#shared/users/model';
import { addSession, createUser, getUser } from '#shared/users/store';
import { type CallOptions, call, cookieValue, requestEvent } from '../support/client.ts';
import { PNG_1X1 } from '../support/pixels.ts';

/** One request as both paths send it: a payload-2.0 event to the handler, or HTTP to the runner. */
export interface BenchRequest {
  method: string;
  url: string;
  options: CallOptions;
}

export interface Scenario {
  /** `METHOD /path` plus how it authenticates when that matters. */
  name: string;
  /** Handler module under `functions/`, as the route table names it. */
  handler: string;
  /** Answer every request must get (anything else fails the benchmark). */
  status: number;
  /** Hashes or verifies a bcrypt password per request: measured with fewer requests. */
  passwordWork: boolean;
  /** Builds request number `index`; untimed setup (a fresh session or user) happens here. */
  request(index: number): Promise<BenchRequest>;
  event(index: number): Promise<APIGatewayProxyEventV2>;
}

const PASSWORD = 'correct horse battery staple';
let serial = 0;
const uniqueName = (prefix: string) => `${prefix}-${process.pid}-${++serial}`;

async function signedIn(role: Role, passwordHash: string) {
  const username = uniqueName(`bench-${role.toLowerCase()}`);
  const user = await createUser({ username, passwordHash, role });
  const login = await call('POST', '/api/auth/login', { json: { username, password: PASSWORD } });
  if (login.status !== 200) throw new Error(`fixture login failed: ${login.text}`);
  const cookie = cookieValue(login.cookies[0]);
  const token = (await call('GET', '/api/user/token', { cookie })).body.token as string;
  return { id: user.id, username, cookie, token };
}

/** A fresh session for `userId`, written through the store (no bcrypt), as its cookie. */
async function freshSessionCookie(userId: string): Promise<string> {
  const user = await getUser(userId, { consistent: true });
  if (!user) throw new Error('fixture user is gone');
  const sessionId = newSessionId();
  const issuedAt = Date.now();
  await addSession(user, sessionId, issuedAt, config().maxSessions);
  return `${SESSION_COOKIE}=${await sealSession({ userId, sessionId, issuedAt })}`;
}

function scenario(
  name: string,
  method: string,
  path: string,
  status: number,
  build: (index: number) => CallOptions | Promise<CallOptions>,
  extra: { url?: (index: number) => string; passwordWork?: boolean } = {},
): Scenario {
  const url = extra.url ?? (() => path);
  const route = routes.find((candidate) => candidate.method === method && candidate.path === path);
  const request = async (index: number): Promise<BenchRequest> => {
    const options = await build(index);
    return { method, url: url(index), options };
  };
  return {
    name,
    handler: route?.handler ?? 'fallback',
    status,
    passwordWork: extra.passwordWork === true,
    request,
    event: async (index) => {
      const { method: verb, url: target, options } = await request(index);
      return requestEvent(verb, target, options);
    },
  };
}

/**
 * Every route of the table (one request that succeeds where it can be repeated), plus the fallback.
 * Fixtures: a USER with an avatar, an ADMIN acting on a USER, and users dedicated to the requests
 * that change sessions or tokens so they do not disturb the others.
 */
export async function benchScenarios(): Promise<{ scenarios: Scenario[]; fixtures: { userId: string } }> {
  const passwordHash = await hashPassword(PASSWORD);
  const [user, admin, tokenOwner, loginUser, logoutUser] = [
    await signedIn('USER', passwordHash),
    await signedIn('ADMIN', passwordHash),
    await signedIn('USER', passwordHash),
    await signedIn('USER', passwordHash),
    await signedIn('USER', passwordHash),
  ];
  const avatar = `data:image/png;base64,${PNG_1X1.toString('base64')}`;
  const patched = await call('PATCH', '/api/user', { token: user.token, json: { avatar } });
  if (patched.status !== 200) throw new Error(`fixture avatar failed: ${patched.text}`);
  const target = await createUser({ username: uniqueName('bench-target'), passwordHash, role: 'USER' });
  // Setup is done once per deployment; afterwards POST /api/setup is the cheap 403 measured here.
  await createUser(
    { username: uniqueName('bench-super'), passwordHash, role: 'SUPERADMIN' },
    { firstUser: true },
  );

  const scenarios = [
    scenario('GET /api/user (token)', 'GET', '/api/user', 200, () => ({ token: user.token })),
    scenario('GET /api/user (cookie)', 'GET', '/api/user', 200, () => ({ cookie: user.cookie })),
    scenario('GET /api/user/token', 'GET', '/api/user/token', 200, () => ({ token: user.token })),
    scenario('GET /api/user/avatar', 'GET', '/api/user/avatar', 200, () => ({ token: user.token })),
    scenario('PATCH /api/user (view)', 'PATCH', '/api/user', 200, (index) => ({
      token: user.token,
      json: { view: { content: `benchmark ${index}` } },
    })),
    scenario('PATCH /api/user/token', 'PATCH', '/api/user/token', 200, () => ({ cookie: tokenOwner.cookie })),
    scenario('GET /api/setup', 'GET', '/api/setup', 200, () => ({})),
    scenario('POST /api/setup (done: 403)', 'POST', '/api/setup', 403, () => ({
      json: { username: 'late-admin', password: PASSWORD },
    })),
    scenario(
      'POST /api/auth/login',
      'POST',
      '/api/auth/login',
      200,
      () => ({
        json: { username: loginUser.username, password: PASSWORD },
      }),
      { passwordWork: true },
    ),
    scenario('POST /api/auth/logout', 'POST', '/api/auth/logout', 200, async () => ({
      cookie: await freshSessionCookie(logoutUser.id),
    })),
    scenario('GET /api/users', 'GET', '/api/users', 200, () => ({ token: admin.token })),
    scenario(
      'POST /api/users',
      'POST',
      '/api/users',
      200,
      () => ({
        token: admin.token,
        json: { username: uniqueName('bench-new'), password: PASSWORD },
      }),
      { passwordWork: true },
    ),
    scenario('GET /api/users/{id}', 'GET', '/api/users/{id}', 200, () => ({ token: admin.token }), {
      url: () => `/api/users/${target.id}`,
    }),
    scenario(
      'PATCH /api/users/{id} (quota)',
      'PATCH',
      '/api/users/{id}',
      200,
      (index) => ({
        token: admin.token,
        json: { quota: { filesQuota: 'BY_FILES', maxBytes: null, maxFiles: index + 1 } },
      }),
      { url: () => `/api/users/${target.id}` },
    ),
    (() => {
      const doomed: string[] = [];
      return scenario(
        'DELETE /api/users/{id}',
        'DELETE',
        '/api/users/{id}',
        200,
        async () => {
          const victim = await createUser({
            username: uniqueName('bench-doomed'),
            passwordHash,
            role: 'USER',
          });
          doomed.push(victim.id);
          return { token: admin.token };
        },
        { url: () => `/api/users/${doomed.at(-1)}` },
      );
    })(),
    scenario('GET /api/nothing (fallback 404)', 'GET', '/api/nothing', 404, () => ({})),
  ];
  return { scenarios, fixtures: { userId: user.id } };
}
