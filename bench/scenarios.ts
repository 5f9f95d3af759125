import { hashPassword } from '#shared/auth/password';
import { createUser } from '#shared/users/creation';
import { loadHandler } from '../infra/local/dispatch.ts';
import { s3Event } from '../infra/local/s3.ts';
import { scheduledEvent } from '../infra/local/schedules.ts';
import { call } from '../tests/support/client.ts';
import { PNG_1X1 } from '../tests/support/pixels.ts';
import type { EventScenario } from './cold-start.ts';
import { exportScenarios } from './export-scenarios.ts';
import { fileScenarios } from './file-scenarios.ts';
import {
  freshSessionCookie,
  madeThumbnail,
  PASSWORD,
  registeredPasskey,
  signedIn,
  uniqueName,
  uploadFile,
  uploadPicture,
} from './fixtures.ts';
import { folderScenarios } from './folder-scenarios.ts';
import { homeScenarios } from './home-scenarios.ts';
import { importScenarios } from './import-scenarios.ts';
import { linkScenarios } from './link-scenarios.ts';
import { dailyMetricsEvent, metricsScenarios } from './metrics-scenarios.ts';
import { type Scenario, scenario } from './scenario.ts';
import { settingsScenarios } from './settings-scenarios.ts';
import { signInScenarios } from './sign-in-scenarios.ts';
import { tagScenarios } from './tag-scenarios.ts';
import { viewScenarios } from './view-scenarios.ts';
import { viewTotalsScenarios } from './view-totals-scenarios.ts';
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
    ...fileScenarios(passwordHash, { uploader, filesOwner }, { file, viewed, locked }),
    ...signInScenarios(passwordHash, user, passkeyUser, passkeyPath, passkey),
    scenario('GET /api/nothing (fallback 404)', 'GET', '/api/nothing', 404, () => ({})),
    ...(await linkScenarios(user, filesOwner)),
    ...(await viewScenarios(user)),
    ...(await settingsScenarios({ cookie: await freshSessionCookie(superadmin.id) }, admin)),
    ...(await importScenarios({ cookie: await freshSessionCookie(superadmin.id) })),
    ...metricsScenarios(admin),
    ...homeScenarios(user, filesOwner),
    ...(await folderScenarios(uploader)),
    ...(await tagScenarios(user, filesOwner, admin)),
    ...ziplineScenarios(uploader, locked, viewed),
    ...exportScenarios(filesOwner).scenarios,
  ];
  // The thumbnail function, as S3 starts it: the event of a 1600×1200 PNG's upload.
  const picture = await uploadPicture(uploader);
  const objectEvents: EventScenario[] = [
    ...exportScenarios(filesOwner).objectEvents,
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
    dailyMetricsEvent,
    ...webhookEventScenarios(),
    ...viewTotalsScenarios(),
  ];
  return { scenarios, objectEvents, fixtures: { userId: user.id } };
}
