/**
 * The target (this service, the local runner or a deployed stack) as the import routes see it: a
 * SUPERADMIN's session cookie from `POST /api/auth/login` (an API token is refused there: the import
 * creates accounts), then one PUT per Zipline row. No Origin header is sent: writes with a cookie are
 * checked against cross-site requests, and a CLI is not a page.
 */
export type Kind = 'users' | 'folders' | 'tags' | 'urls' | 'files';

export interface Answer {
  status: number;
  body: Record<string, unknown>;
}

export interface Target {
  base: string;
  put: (kind: Kind, ziplineId: string, body: unknown) => Promise<Answer>;
  /** `owner`: the file's Zipline user id, as in its PUT (the pending upload lives in that user's partition). */
  complete: (ziplineId: string, owner: string) => Promise<Answer>;
  status: () => Promise<Record<Kind, number>>;
  /** A public page of the target (`/raw/<name>`, `/go/<code>`), without following redirects. */
  page: (path: string, method: 'GET' | 'HEAD') => Promise<Response>;
}

export class SignInError extends Error {}

async function answerOf(response: Response): Promise<Answer> {
  const text = await response.text();
  let body: Record<string, unknown> = {};
  try {
    body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    body = { error: text.slice(0, 200) };
  }
  return { status: response.status, body };
}

/** `Set-Cookie` values as `name=value` pairs (getSetCookie keeps them apart: never split on commas). */
function cookieHeader(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0] as string)
    .join('; ');
}

export async function signIn(
  base: string,
  credentials: { username: string; password: string; code?: () => Promise<string> },
): Promise<Target> {
  const root = base.replace(/\/+$/, '');
  const login = (body: Record<string, string>) =>
    fetch(`${root}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const { username, password } = credentials;
  let response = await login({ username, password });
  let answer = await answerOf(response.clone());
  if (response.ok && answer.body.totp === true) {
    if (!credentials.code) throw new SignInError('the target account has TOTP on: pass --totp <code>');
    response = await login({ username, password, code: await credentials.code() });
    answer = await answerOf(response.clone());
  }
  if (!response.ok)
    throw new SignInError(`sign-in to ${root} refused: ${response.status} ${answer.body.error ?? ''}`);
  const cookie = cookieHeader(response);
  if (!cookie) throw new SignInError(`sign-in to ${root} set no cookie`);
  const role = (answer.body.user as { role?: string } | undefined)?.role;
  if (role !== 'SUPERADMIN')
    throw new SignInError(`${username} is ${role ?? 'not'} a SUPERADMIN on the target`);
  const request = (method: string, path: string, body?: unknown) =>
    fetch(root + path, {
      method,
      headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }).then(answerOf);
  return {
    base: root,
    put: (kind, ziplineId, body) =>
      request('PUT', `/api/import/zipline/${kind}/${encodeURIComponent(ziplineId)}`, body),
    complete: (ziplineId, owner) =>
      request('POST', `/api/import/zipline/files/${encodeURIComponent(ziplineId)}/complete`, { owner }),
    async status() {
      const answer = await request('GET', '/api/import/zipline/status');
      if (answer.status !== 200) throw new Error(`status: ${answer.status} ${answer.body.error ?? ''}`);
      return answer.body as Record<Kind, number>;
    },
    page: (path, method) => fetch(root + path, { method, redirect: 'manual' }),
  };
}
