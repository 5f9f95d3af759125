import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { newSessionId, SESSION_COOKIE, sealSession } from '#shared/auth/session';
import { config } from '#shared/config/service';
import { newRecoveryCodes, recoveryCodeHash } from '#shared/mfa/recovery-codes';
import { offeredSecret, sealTotpSecret } from '#shared/mfa/sealing';
import { writeEnrolment } from '#shared/mfa/totp-store';
import { createUser } from '#shared/users/creation';
import type { Role } from '#shared/users/model';
import { addSession } from '#shared/users/sign-in/sessions';
import { getUser } from '#shared/users/store';
import { assert, type Credential, register } from '../tests/support/authenticator.ts';
import { type CallOptions, call, cookieValue } from '../tests/support/client.ts';
import { multipart } from '../tests/support/multipart.ts';
import { VIEWER, VIEWER_ORIGIN } from './services.ts';

/** The benchmark's untimed setup: signed-in users, fresh sessions, uploaded files. */

export const PASSWORD = 'correct horse battery staple';
let serial = 0;
export const uniqueName = (prefix: string) => `${prefix}-${process.pid}-${++serial}`;

export async function signedIn(role: Role, passwordHash: string) {
  const username = uniqueName(`bench-${role.toLowerCase()}`);
  const user = await createUser({ username, passwordHash, role });
  const login = await call('POST', '/api/auth/login', { json: { username, password: PASSWORD } });
  if (login.status !== 200) throw new Error(`fixture login failed: ${login.text}`);
  const cookie = cookieValue(login.cookies[0]);
  const token = (await call('GET', '/api/user/token', { cookie })).body.token as string;
  return { id: user.id, username, cookie, token };
}

/** A fresh session for `userId`, written through the store (no bcrypt), as its cookie. */
export async function freshSessionCookie(userId: string): Promise<string> {
  const user = await getUser(userId, { consistent: true });
  if (!user) throw new Error('fixture user is gone');
  const sessionId = newSessionId();
  const issuedAt = Date.now();
  await addSession(user, { sessionId, issuedAt, userAgent: 'bench' }, config().maxSessions);
  return `${SESSION_COOKIE}=${await sealSession({ userId, sessionId, issuedAt })}`;
}

export const UPLOAD_BYTES = 4096;

export function uploadOptions(token: string, headers: Record<string, string> = {}): CallOptions {
  const { body, contentType } = multipart([
    { fileName: 'screenshot.png', type: 'image/png', content: randomBytes(UPLOAD_BYTES) },
  ]);
  return { token, raw: body, headers: { 'content-type': contentType, ...headers } };
}

/** Uploads one file through `POST /api/upload` (untimed setup) and answers its id and public name. */
export async function uploadFile(
  token: string,
  headers: Record<string, string> = {},
): Promise<{ id: string; name: string }> {
  const response = await call('POST', '/api/upload', uploadOptions(token, headers));
  if (response.status !== 200) throw new Error(`fixture upload failed: ${response.text}`);
  return response.body.files[0] as { id: string; name: string };
}

/** Uploads a 1600×1200 PNG (untimed setup) and answers its id, public name and object key. */
export async function uploadPicture(owner: { id: string; token: string }) {
  const { body, contentType } = multipart([
    {
      fileName: 'picture.png',
      type: 'image/png',
      content: await sharp({
        create: { width: 1600, height: 1200, channels: 3, background: { r: 40, g: 120, b: 200 } },
      })
        .png()
        .toBuffer(),
    },
  ]);
  const response = await call('POST', '/api/upload', {
    token: owner.token,
    raw: body,
    headers: { 'content-type': contentType },
  });
  if (response.status !== 200) throw new Error(`fixture picture upload failed: ${response.text}`);
  const { id, name } = response.body.files[0] as { id: string; name: string };
  return { id, name, key: `files/${owner.id}/${id}` };
}

/** The thumbnail function's outcome for an object, as S3's object-created event starts it. */
export const madeThumbnail = (result: unknown) =>
  JSON.stringify((result as { outcomes?: unknown[] }).outcomes?.[0] ?? {}).includes('"made"');

/** Starts a presigned upload and PUTs its bytes to the URL, as a client does before completing it. */
export async function presignedUploadAwaitingCompletion(token: string): Promise<string> {
  const started = await call('POST', '/api/user/files/uploads', {
    token,
    json: { originalName: 'recording.mp4', size: UPLOAD_BYTES, type: 'video/mp4' },
  });
  if (started.status !== 200) throw new Error(`fixture upload start failed: ${started.text}`);
  const put = await fetch(started.body.url, {
    method: 'PUT',
    body: randomBytes(UPLOAD_BYTES),
    headers: started.body.headers,
  });
  if (!put.ok) throw new Error(`fixture PUT to the presigned URL failed: ${put.status}`);
  return started.body.id as string;
}

/** A fresh user with a session and TOTP off, and the secret its enrolment offer gives. */
export async function totpCandidate(passwordHash: string) {
  const owner = await createUser({ username: uniqueName('bench-totp'), passwordHash, role: 'USER' });
  return {
    id: owner.id,
    username: owner.username,
    cookie: await freshSessionCookie(owner.id),
    secret: await offeredSecret(owner.id, 0),
  };
}

/** A fresh user with TOTP on (written through the store, as an enrolment writes it) and one recovery code. */
export async function totpEnrolled(passwordHash: string) {
  const candidate = await totpCandidate(passwordHash);
  const [recoveryCode] = newRecoveryCodes() as [string];
  const written = await writeEnrolment(candidate.id, {
    sealedSecret: await sealTotpSecret(candidate.id, candidate.secret),
    recoveryHashes: { [recoveryCodeHash(candidate.id, recoveryCode)]: 1 },
    step: undefined,
    enrolments: 0,
  });
  if (!written) throw new Error('fixture TOTP enrolment failed');
  return { ...candidate, recoveryCode };
}

/**
 * A passkey registered for the user with the cookie, through the API (tests/support/authenticator.ts
 * answers as a browser at the dashboard's origin the benchmark configures, `VIEWER_ORIGIN`).
 */
export async function registeredPasskey(cookie: string): Promise<Credential> {
  const options = await call('POST', '/api/user/passkeys/options', { cookie });
  const { credential, response } = register(options.body, { origin: VIEWER_ORIGIN });
  const added = await call('POST', '/api/user/passkeys', { cookie, json: { response } });
  if (added.status !== 200) throw new Error(`fixture passkey failed: ${added.text}`);
  return credential;
}

/** A registration's body answering fresh options for a new user (a user holds at most 20 passkeys). */
export async function passkeyRegistration(passwordHash: string): Promise<CallOptions> {
  const user = await createUser({ username: uniqueName('bench-passkey'), passwordHash, role: 'USER' });
  const cookie = await freshSessionCookie(user.id);
  const options = await call('POST', '/api/user/passkeys/options', { cookie });
  return {
    cookie,
    headers: VIEWER,
    json: { response: register(options.body, { origin: VIEWER_ORIGIN }).response },
  };
}

/**
 * A sign-in's body answering fresh options. Its counter stays 0 (as many platform passkeys report):
 * requests sent concurrently cannot arrive out of counter order.
 */
export async function passkeySignIn(credential: Credential): Promise<CallOptions> {
  const options = await call('POST', '/api/auth/passkey/options');
  return { headers: VIEWER, json: assert(credential, options.body, { counter: 0, origin: VIEWER_ORIGIN }) };
}
