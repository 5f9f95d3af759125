import { jest } from '@jest/globals';
import { currentSettings, SETTINGS_STALENESS_MS } from '#shared/settings/current';
import { defaultSettings } from '#shared/settings/model';
import { changeSettings } from '#shared/settings/store';
import { call } from '../support/client.ts';
import { signedInUser } from '../support/users.ts';

/** `GET/PATCH /api/server/settings` (issue 38, docs/settings.md). */

let root: Awaited<ReturnType<typeof signedInUser>>;
beforeAll(async () => {
  root = await signedInUser('SUPERADMIN');
});

const readAll = async () => (await call('GET', '/api/server/settings', { cookie: root.cookie })).body;

test('a fresh instance answers the deploy-time defaults, none fixed by the environment', async () => {
  const response = await call('GET', '/api/server/settings', { token: root.token });
  expect(response.status).toBe(200);
  expect(response.body).toEqual({ settings: defaultSettings(), tampered: [], version: expect.any(Number) });
  expect(response.body.settings).toMatchObject({
    featuresUserRegistration: false,
    websiteTitle: 'File service',
  });
});

test.each([
  ['ADMIN', 403],
  ['USER', 403],
] as const)('%s gets %i and changes nothing', async (role, status) => {
  const caller = await signedInUser(role);
  const before = await readAll();
  expect((await call('GET', '/api/server/settings', { cookie: caller.cookie })).status).toBe(status);
  const patch = await call('PATCH', '/api/server/settings', {
    cookie: caller.cookie,
    json: { featuresUserRegistration: true },
  });
  expect(patch.status).toBe(status);
  expect(await readAll()).toEqual(before);
});

test('nobody signed in gets 401; an API token may read but not change them', async () => {
  expect((await call('GET', '/api/server/settings')).status).toBe(401);
  const before = await readAll();
  const patch = await call('PATCH', '/api/server/settings', {
    token: root.token,
    json: { invitesEnabled: false },
  });
  expect(patch.status).toBe(403);
  expect(await readAll()).toEqual(before);
});

test.each([
  [{ featuresUserRegistration: 'yes' }, 'featuresUserRegistration: must be true or false'],
  [{ invitesLength: 3 }, 'invitesLength: must be at least 6'],
  [{ invitesLength: 6.5 }, 'invitesLength: must be a whole number'],
  [{ filesDefaultFormat: 'sequential' }, 'filesDefaultFormat: must be one of'],
  [{ filesDefaultExpiration: 'tomorrow' }, 'filesDefaultExpiration: must be a lifetime'],
  [{ filesDefaultExpiration: '-1d' }, 'filesDefaultExpiration: must be a lifetime'],
  [{ filesMaxFileSize: 'huge' }, 'filesMaxFileSize: must be a positive byte size'],
  [{ filesDisabledExtensions: ['ex e'] }, 'filesDisabledExtensions.0: must be extensions'],
  [{ filesDisabledExtensions: 'exe' }, 'filesDisabledExtensions: must be a list'],
  [{ filesDisabledTypes: ['nope'] }, 'filesDisabledTypes.0: must be content types'],
  [{ domains: ['https://x.example'] }, 'domains.0: must be host names'],
  [{ usersDefaultView: { enabled: true, colour: 'red' } }, 'usersDefaultView.colour: unknown property'],
  [{ websiteTitle: '' }, 'websiteTitle: must not be empty'],
  [{ websiteTitle: 'x'.repeat(65) }, 'websiteTitle: must be at most 64 characters'],
  [{ websiteLoginText: 'a\u0000b' }, 'websiteLoginText: must not contain control characters'],
  [{ coreTempDirectory: '/tmp' }, 'coreTempDirectory: unknown property'],
  [{ websiteTitle: 'Fine', invitesLength: 2 }, 'invitesLength: must be at least 6'],
])('PATCH %j is a 400 naming the setting, and changes nothing', async (body, message) => {
  const before = await readAll();
  const response = await call('PATCH', '/api/server/settings', { cookie: root.cookie, json: body });
  expect(response.status).toBe(400);
  expect(response.body.error).toContain(message);
  expect(await readAll()).toEqual(before);
});

test('a change is answered in force, normalised, and null returns a setting to its default', async () => {
  const response = await call('PATCH', '/api/server/settings', {
    cookie: root.cookie,
    json: {
      websiteTitle: '  Our files ',
      filesDisabledExtensions: ['.EXE', 'exe', 'bat'],
      filesDisabledTypes: ['Video/*'],
      filesMaxFileSize: '10mb',
      domains: ['Files.Example.com'],
    },
  });
  expect(response.status).toBe(200);
  expect(response.body.settings).toMatchObject({
    websiteTitle: 'Our files',
    filesDisabledExtensions: ['exe', 'bat'],
    filesDisabledTypes: ['video/*'],
    filesMaxFileSize: '10mb',
    domains: ['files.example.com'],
  });
  expect((await readAll()).settings).toEqual(response.body.settings);
  const reset = await call('PATCH', '/api/server/settings', {
    cookie: root.cookie,
    json: { websiteTitle: null, filesMaxFileSize: null, filesDisabledTypes: null },
  });
  expect(reset.body.settings).toMatchObject({
    websiteTitle: defaultSettings().websiteTitle,
    filesMaxFileSize: null,
    filesDisabledTypes: [],
    filesDisabledExtensions: ['exe', 'bat'],
  });
});

test('concurrent PATCHes of different settings all stay: no change is lost', async () => {
  const { version } = await readAll();
  const changes = [
    { featuresUserRegistration: true },
    { invitesEnabled: false },
    { invitesLength: 12 },
    { filesDefaultFormat: 'uuid' },
    { filesDefaultExpiration: '7d' },
    { filesRemoveGpsMetadata: true },
    { filesDisabledTypes: ['video/*'] },
    { websiteLoginText: 'Ask Sam for an invite.' },
    { usersDefaultView: { enabled: true } },
    { domains: ['a.example.com'] },
  ];
  const answers = await Promise.all(
    changes.map((json) => call('PATCH', '/api/server/settings', { cookie: root.cookie, json })),
  );
  expect(answers.map((answer) => answer.status)).toEqual(changes.map(() => 200));
  const after = await readAll();
  expect(after.settings).toMatchObject(Object.assign({}, ...changes));
  expect(after.version).toBe(version + changes.length);
});

test(`another function's change applies here within ${SETTINGS_STALENESS_MS / 1000} s, not before`, async () => {
  const before = await currentSettings();
  // Written as another function instance would: this one's cached copy knows nothing of it.
  await changeSettings({ websiteTitle: `${before.websiteTitle} 2` });
  const now = Date.now();
  const clock = jest.spyOn(Date, 'now');
  try {
    clock.mockReturnValue(now + 1);
    expect((await currentSettings()).websiteTitle).toBe(before.websiteTitle);
    clock.mockReturnValue(now + SETTINGS_STALENESS_MS + 1);
    expect((await currentSettings()).websiteTitle).toBe(`${before.websiteTitle} 2`);
  } finally {
    clock.mockRestore();
  }
});
