import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The one client both servers get: Zipline v4's API, which ours follows (docs/api.md). The first
 * user is Zipline's `POST /api/setup`; ours makes it from ADMIN_USERNAME / ADMIN_PASSWORD at start.
 */

async function call(url: string, init: RequestInit = {}): Promise<Response> {
  const response = await fetch(url, init);
  if (!response.ok) {
    throw new Error(
      `${init.method ?? 'GET'} ${url} -> ${response.status} ${(await response.text()).slice(0, 300)}`,
    );
  }
  return response;
}

const jsonBody = (value: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(value),
});

/** Zipline's first user (its setup page's request). */
export async function setUp(base: string, username: string, password: string): Promise<void> {
  await call(`${base}/api/setup`, jsonBody({ username, password }));
}

/** Signs in with the password and reads the API token with the session, as the dashboard does. */
export async function tokenOf(base: string, username: string, password: string): Promise<string> {
  const login = await call(`${base}/api/auth/login`, jsonBody({ username, password }));
  const cookie = login.headers
    .getSetCookie()
    .map((each) => each.split(';')[0])
    .join('; ');
  const answer = await call(`${base}/api/user/token`, { headers: { cookie } });
  const { token } = (await answer.json()) as { token?: string };
  if (!token) throw new Error(`${base}: no token after signing in`);
  return token;
}

export interface UploadBody {
  file: string;
  contentType: string;
  bytes: number;
}

/** A multipart upload of one file (field `file`), written once for every request of a load to send. */
export function uploadBody(scratch: string, name: string, bytes: number): UploadBody {
  const boundary = `----peer-bench-${bytes}`;
  const content = Buffer.alloc(bytes, 'peer benchmark text\n');
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n` +
        'Content-Type: text/plain\r\n\r\n',
    ),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const file = join(scratch, `upload-${bytes}.multipart`);
  writeFileSync(file, body);
  return { file, contentType: `multipart/form-data; boundary=${boundary}`, bytes };
}

/** Uploads one small file and answers its name (the tail of the `url` both servers answer). */
export async function uploadOne(base: string, token: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob(['peer benchmark view page\n'], { type: 'text/plain' }), 'viewed.txt');
  const answer = await call(`${base}/api/upload`, {
    method: 'POST',
    headers: { authorization: token },
    body: form,
  });
  const { files } = (await answer.json()) as { files: { url: string }[] };
  return lastSegment(files[0]?.url);
}

/** Turns the user's view pages on (Zipline's `PATCH /api/user` field): both serve `/view/{name}` only then. */
export async function enableViewPages(base: string, token: string): Promise<void> {
  await call(`${base}/api/user`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json', authorization: token },
    body: JSON.stringify({ view: { enabled: true } }),
  });
}

/** Shortens a URL and answers the code its short link ends with. */
export async function shorten(base: string, token: string): Promise<string> {
  const init = jsonBody({ destination: 'https://example.com/peer-benchmark' });
  const answer = await call(`${base}/api/user/urls`, {
    ...init,
    headers: { ...(init.headers as Record<string, string>), authorization: token },
  });
  return lastSegment(((await answer.json()) as { url?: string }).url);
}

function lastSegment(url: string | undefined): string {
  const segment = url?.split('/').pop();
  if (!segment) throw new Error(`no name in the answer's url ${url}`);
  return decodeURIComponent(segment);
}

/** Whether a path answers a redirect without following it (a build without short links answers 404). */
export async function redirects(base: string, path: string): Promise<boolean> {
  const answer = await fetch(`${base}${path}`, { redirect: 'manual' });
  await answer.arrayBuffer();
  return answer.status >= 300 && answer.status < 400;
}
