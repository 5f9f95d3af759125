import { hashPassword } from '#shared/auth/password';
import { MAX_PENDING_UPLOADS } from '#shared/files/reservation/pending';
import { createUser } from '#shared/users/creation';
import { loadHandler } from '../infra/local/dispatch.ts';
import { s3Event } from '../infra/local/s3.ts';
import { scheduledEvent } from '../infra/local/schedules.ts';
import { call } from '../tests/support/client.ts';
import { PNG_1X1 } from '../tests/support/pixels.ts';
import { codeAt, stepNow } from '../tests/support/totp-codes.ts';
import type { EventScenario } from './cold-start.ts';
import {
  freshSessionCookie,
  madeThumbnail,
  PASSWORD,
  passkeyRegistration,
  passkeySignIn,
  presignedUploadAwaitingCompletion,
  registeredPasskey,
  signedIn,
  totpCandidate,
  totpEnrolled,
  uniqueName,
  uploadFile,
  uploadOptions,
  uploadPicture,
} from './fixtures.ts';
import { linkScenarios } from './link-scenarios.ts';
import { type Scenario, scenario } from './scenario.ts';
import { VIEWER } from './services.ts';
import { settingsScenarios } from './settings-scenarios.ts';
import { webhookEventScenarios } from './webhook-scenarios.ts';
import { ziplineScenarios } from './zipline-scenarios.ts';

/** Files of the listing fixture: more than one page of 15. */
const LISTED_FILES = 40;

/**
 * Every route of the table (one request that succeeds where it can be repeated), plus the fallback.
 * Fixtures: a USER with an avatar, an ADMIN acting on a USER, users dedicated to the requests that
 * change sessions or tokens so they do not disturb the others (a fresh one per token reset), a USER
 * with 40 small files, and a USER who uploads (so the listed library keeps its size).
 */
export async function benchScenarios(): Promise<{
  scenarios: Scenario[];
  objectEvents: EventScenario[];
  fixtures: { userId: string };
}> {
  const passwordHash = await hashPassword(PASSWORD);
  const [user, admin, loginUser, logoutUser, filesOwner, uploader] = [
    await signedIn('USER', passwordHash),
    await signedIn('ADMIN', passwordHash),
    await signedIn('USER', passwordHash),
    await signedIn('USER', passwordHash),
    await signedIn('USER', passwordHash),
    await signedIn('USER', passwordHash),
  ];
  // One user renames its passkey and asks for options with a steady session; the passkey signed in
  // with is another user's, whose sessions the sign-ins churn.
  const [passkeyUser, passkeySignInUser] = [
    await signedIn('USER', passwordHash),
    await signedIn('USER', passwordHash),
  ];
  const passkeyPath = `/api/user/passkeys/${(await registeredPasskey(passkeyUser.cookie)).id.toString('base64url')}`;
  const passkey = await registeredPasskey(passkeySignInUser.cookie);
  const avatar = `data:image/png;base64,${PNG_1X1.toString('base64')}`;
  const patched = await call('PATCH', '/api/user', { token: user.token, json: { avatar } });
  if (patched.status !== 200) throw new Error(`fixture avatar failed: ${patched.text}`);
  const target = await createUser({ username: uniqueName('bench-target'), passwordHash, role: 'USER' });
  // Setup is done once per deployment; afterwards POST /api/setup is the cheap 403 measured here.
  const superadmin = await createUser(
    { username: uniqueName('bench-super'), passwordHash, role: 'SUPERADMIN' },
    { firstUser: true },
  );
  const file = await uploadFile(filesOwner.token);
  // The view page's owner has view pages and embeds on; `user`'s content changes are what the page shows.
  const viewOn = await call('PATCH', '/api/user', {
    token: user.token,
    json: { view: { enabled: true, embed: true } },
  });
  if (viewOn.status !== 200) throw new Error(`fixture view settings failed: ${viewOn.text}`);
  // An image's page as every image upload ends up: with its thumbnail (the image, the download and
  // og:image, three presigned URLs).
  const viewed = await uploadPicture(user);
  const thumbnailed = await (await loadHandler('thumbnails/make'))(
    s3Event(process.env.BUCKET_NAME as string, viewed.key) as never,
  );
  if (!madeThumbnail(thumbnailed))
    throw new Error(`fixture thumbnail failed: ${JSON.stringify(thumbnailed)}`);
  const locked = await uploadFile(user.token, { 'x-zipline-password': PASSWORD });
  for (let index = 1; index < LISTED_FILES; index++) await uploadFile(filesOwner.token);

  const scenarios = [
    scenario('GET /api/user (token)', 'GET', '/api/user', 200, () => ({ token: user.token })),
    scenario('GET /api/user (cookie)', 'GET', '/api/user', 200, () => ({ cookie: user.cookie })),
    scenario('GET /api/user/token', 'GET', '/api/user/token', 200, () => ({ token: user.token })),
    scenario('GET /api/user/avatar', 'GET', '/api/user/avatar', 200, () => ({ token: user.token })),
    scenario('PATCH /api/user (view)', 'PATCH', '/api/user', 200, (index) => ({
      token: user.token,
      json: { view: { content: `benchmark ${index}` } },
    })),
    scenario('GET /api/setup', 'GET', '/api/setup', 200, () => ({})),
    scenario('GET /api/healthcheck', 'GET', '/api/healthcheck', 200, () => ({})),
    scenario('GET /api/version', 'GET', '/api/version', 200, () => ({ token: user.token })),
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
      { load: 'password' },
    ),
    scenario('POST /api/auth/logout', 'POST', '/api/auth/logout', 200, async () => ({
      cookie: await freshSessionCookie(logoutUser.id),
    })),
    // TOTP: the offer renders a QR code; enrolment and turning off each need a fresh user (they
    // change its state), as does a login with a recovery code (each is used once).
    scenario('GET /api/user/mfa/totp (offer)', 'GET', '/api/user/mfa/totp', 200, () => ({
      cookie: user.cookie,
    })),
    scenario('POST /api/user/mfa/totp', 'POST', '/api/user/mfa/totp', 200, async () => {
      const candidate = await totpCandidate(passwordHash);
      return {
        cookie: candidate.cookie,
        json: { secret: candidate.secret, code: codeAt(candidate.secret, stepNow()) },
      };
    }),
    scenario('DELETE /api/user/mfa/totp (recovery code)', 'DELETE', '/api/user/mfa/totp', 200, async () => {
      const enrolled = await totpEnrolled(passwordHash);
      return { cookie: enrolled.cookie, json: { code: enrolled.recoveryCode } };
    }),
    scenario(
      'POST /api/auth/login (recovery code)',
      'POST',
      '/api/auth/login',
      200,
      async () => {
        const enrolled = await totpEnrolled(passwordHash);
        return { json: { username: enrolled.username, password: PASSWORD, code: enrolled.recoveryCode } };
      },
      { load: 'password' },
    ),
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
      { load: 'password' },
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
    // Token resets are limited per user and window: each request resets a fresh user's token. Measured
    // after GET /api/users, whose page those users would otherwise fill.
    scenario('PATCH /api/user/token', 'PATCH', '/api/user/token', 200, async () => {
      const owner = await createUser({ username: uniqueName('bench-token'), passwordHash, role: 'USER' });
      return { cookie: await freshSessionCookie(owner.id) };
    }),
    scenario('POST /api/upload (4 KiB)', 'POST', '/api/upload', 200, () => uploadOptions(uploader.token)),
    (() => {
      // Each start stays pending: a fresh user whenever the last one has its pending uploads' maximum.
      let starter: Promise<string> | undefined;
      return scenario(
        'POST /api/user/files/uploads',
        'POST',
        '/api/user/files/uploads',
        200,
        async (index) => {
          if (starter === undefined || index % MAX_PENDING_UPLOADS === 0) {
            starter = createUser({ username: uniqueName('bench-starter'), passwordHash, role: 'USER' }).then(
              (owner) => freshSessionCookie(owner.id),
            );
          }
          return {
            cookie: await starter,
            json: { originalName: 'recording.mp4', size: 50 * 1024 ** 2, type: 'video/mp4' },
          };
        },
      );
    })(),
    (() => {
      const pending: string[] = [];
      return scenario(
        'POST /api/user/files/uploads/{id}/complete',
        'POST',
        '/api/user/files/uploads/{id}/complete',
        200,
        async () => {
          pending.push(await presignedUploadAwaitingCompletion(uploader.token));
          return { token: uploader.token };
        },
        { url: () => `/api/user/files/uploads/${pending.at(-1)}/complete`, load: 'heavySetup' },
      );
    })(),
    scenario(
      'GET /api/user/files (page of 15)',
      'GET',
      '/api/user/files',
      200,
      () => ({ token: filesOwner.token }),
      { url: () => '/api/user/files?perpage=15' },
    ),
    scenario(
      'GET /api/user/files/{id}',
      'GET',
      '/api/user/files/{id}',
      200,
      () => ({ token: filesOwner.token }),
      {
        url: () => `/api/user/files/${file.id}`,
      },
    ),
    scenario(
      'PATCH /api/user/files/{id} (favorite)',
      'PATCH',
      '/api/user/files/{id}',
      200,
      (index) => ({ token: filesOwner.token, json: { favorite: index % 2 === 0 } }),
      { url: () => `/api/user/files/${file.id}` },
    ),
    (() => {
      const doomed: string[] = [];
      return scenario(
        'DELETE /api/user/files/{id}',
        'DELETE',
        '/api/user/files/{id}',
        200,
        async () => {
          doomed.push((await uploadFile(uploader.token)).id);
          return { token: uploader.token };
        },
        { url: () => `/api/user/files/${doomed.at(-1)}`, load: 'heavySetup' },
      );
    })(),
    scenario(
      'GET /api/user/files/{id}/raw (owner, 200)',
      'GET',
      '/api/user/files/{id}/raw',
      200,
      () => ({ token: filesOwner.token }),
      { url: () => `/api/user/files/${file.id}/raw` },
    ),
    scenario('GET /raw/{name} (200)', 'GET', '/raw/{name}', 200, () => ({}), {
      url: () => `/raw/${encodeURIComponent(file.name)}`,
    }),
    scenario('GET /view/{name} (image page)', 'GET', '/view/{name}', 200, () => ({}), {
      url: () => `/view/${encodeURIComponent(viewed.name)}`,
    }),
    scenario(
      'POST /view/{name} (password form)',
      'POST',
      '/view/{name}',
      200,
      (index) => ({
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        raw: new URLSearchParams({ password: PASSWORD }).toString(),
        // A viewer each (198.18.0.0/15, the benchmarking range): one address may check 30 passwords
        // a window, and this measures the check, not the limit.
        sourceIp: `198.18.${Math.floor(index / 250) % 250}.${index % 250}`,
      }),
      { url: () => `/view/${encodeURIComponent(locked.name)}`, load: 'password' },
    ),
    scenario('GET /api/oembed/{name}', 'GET', '/api/oembed/{name}', 200, () => ({}), {
      url: () => `/api/oembed/${encodeURIComponent(viewed.name)}`,
    }),
    // Sign-in providers: the benchmark runs with none configured (as a deployment does by default), so
    // the public configuration lists none, the caller has none linked, and the starts and callback
    // answer the unknown provider's 404; the unlinks of a provider the user has not linked are their
    // 400 after the caller's read (by the session: a token is refused).
    scenario('GET /api/server/public', 'GET', '/api/server/public', 200, () => ({})),
    scenario('GET /api/auth/oauth (none linked)', 'GET', '/api/auth/oauth', 200, () => ({
      cookie: user.cookie,
    })),
    scenario('DELETE /api/auth/oauth (not linked: 400)', 'DELETE', '/api/auth/oauth', 400, () => ({
      cookie: user.cookie,
      json: { provider: 'GITHUB' },
    })),
    scenario(
      'GET /api/auth/oauth/{provider} (not configured: 404)',
      'GET',
      '/api/auth/oauth/{provider}',
      404,
      () => ({}),
      { url: () => '/api/auth/oauth/github' },
    ),
    scenario(
      'POST /api/auth/oauth/{provider} (link, not configured: 404)',
      'POST',
      '/api/auth/oauth/{provider}',
      404,
      () => ({ cookie: user.cookie }),
      { url: () => '/api/auth/oauth/github' },
    ),
    // The code a provider sign-in owes, without its pending sign-in: the refusal before any read.
    scenario('POST /api/auth/totp (no pending sign-in: 401)', 'POST', '/api/auth/totp', 401, () => ({
      json: { code: '123456' },
    })),
    scenario(
      'GET /api/auth/oauth/{provider}/callback (not configured: 404)',
      'GET',
      '/api/auth/oauth/{provider}/callback',
      404,
      () => ({}),
      { url: () => '/api/auth/oauth/github/callback?code=c&state=s' },
    ),
    scenario('DELETE /api/user/oauth (not linked: 400)', 'DELETE', '/api/user/oauth', 400, () => ({
      cookie: user.cookie,
      json: { provider: 'github' },
    })),
    // Passkeys: each ceremony with real options and a real answer (made untimed, by the software
    // authenticator); a registration per fresh user; the delete of an id the caller does not have.
    scenario('POST /api/user/passkeys/options', 'POST', '/api/user/passkeys/options', 200, () => ({
      cookie: passkeyUser.cookie,
      headers: VIEWER,
    })),
    scenario('POST /api/user/passkeys (verify and store)', 'POST', '/api/user/passkeys', 200, () =>
      passkeyRegistration(passwordHash),
    ),
    scenario(
      'PATCH /api/user/passkeys/{id}',
      'PATCH',
      '/api/user/passkeys/{id}',
      200,
      () => ({
        cookie: passkeyUser.cookie,
        json: { name: 'Bench laptop' },
      }),
      { url: () => passkeyPath },
    ),
    scenario(
      "DELETE /api/user/passkeys/{id} (not the caller's: 404)",
      'DELETE',
      '/api/user/passkeys/{id}',
      404,
      () => ({ cookie: user.cookie }),
      { url: () => passkeyPath },
    ),
    scenario('POST /api/auth/passkey/options', 'POST', '/api/auth/passkey/options', 200, () => ({
      headers: VIEWER,
    })),
    scenario('POST /api/auth/passkey (sign-in)', 'POST', '/api/auth/passkey', 200, () =>
      passkeySignIn(passkey),
    ),
    scenario('GET /api/nothing (fallback 404)', 'GET', '/api/nothing', 404, () => ({})),
    ...(await linkScenarios(user, filesOwner)),
    ...(await settingsScenarios({ cookie: await freshSessionCookie(superadmin.id) }, admin)),
    ...ziplineScenarios(uploader, locked, viewed),
  ];
  // The thumbnail function, as S3 starts it: the event of a 1600×1200 PNG's upload.
  const picture = await uploadPicture(uploader);
  const objectEvents: EventScenario[] = [
    {
      name: 'S3 object created (1600×1200 PNG)',
      handler: 'thumbnails/make',
      event: async () => s3Event(process.env.BUCKET_NAME as string, picture.key),
      succeeded: madeThumbnail,
    },
    {
      name: 'scheduled expiry sweep (nothing due)',
      handler: 'files/expire',
      event: async () => scheduledEvent(),
      succeeded: (result) => (result as { failed?: number }).failed === 0,
    },
    {
      name: 'scheduled deletion sweep (none pending)',
      handler: 'users/continue-deletions',
      event: async () => scheduledEvent(),
      succeeded: (result) => {
        const report = result as { finished?: number; left?: number };
        return report.finished === 0 && report.left === 0;
      },
    },
    ...webhookEventScenarios(),
  ];
  return { scenarios, objectEvents, fixtures: { userId: user.id } };
}
