import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Runner, startRunner, stopRunner } from '../support/runner.ts';

/**
 * `npm run import:zipline` end to end, as a user runs it: its own process against `npm start` (a real
 * runner: DynamoDB Local, s3rver), fed the server export captured from the real Zipline 4 build and
 * its uploads folder (tests/fixtures/zipline-v4). The interruption is a real fault: one file is
 * missing from the uploads folder, then put back; the second run finishes, the third changes nothing.
 */
// biome-ignore lint/suspicious/noExplicitAny: the export's rows and the report are asserted field by field
type Loose = any;

const fixture = join(import.meta.dirname, '..', 'fixtures', 'zipline-v4');
const exported = JSON.parse(readFileSync(join(fixture, 'export.json'), 'utf8')).data;
const PASSWORD = 'migration password 1';
const work = mkdtempSync(join(tmpdir(), 'import-zipline-'));
const uploads = join(work, 'uploads');
let runner: Runner;

function importZipline(args: string[]) {
  const reportFile = join(work, `report-${Date.now()}.json`);
  return new Promise<{ code: number; stdout: string; stderr: string; report: Loose }>((resolve) =>
    execFile(
      process.execPath,
      ['node_modules/tsx/dist/cli.mjs', 'tools/import-zipline/cli.ts', ...args, '--report', reportFile],
      {
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', IMPORT_TARGET_PASSWORD: PASSWORD },
        timeout: 240_000,
      },
      (error, stdout, stderr) => {
        let report: Loose = null;
        try {
          report = JSON.parse(readFileSync(reportFile, 'utf8'));
        } catch {}
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr, report });
      },
    ),
  );
}

const fromExport = () => [
  '--export',
  join(fixture, 'export.json'),
  '--uploads',
  uploads,
  '--target',
  runner.url,
  '--target-user',
  'migrator',
];
const counts = (report: Loose, kind: string) => {
  const tally: Record<string, number> = {};
  for (const entry of report.entries.filter((e: Loose) => e.kind === kind))
    tally[entry.outcome] = (tally[entry.outcome] ?? 0) + 1;
  return tally;
};

async function session(username: string, password: string) {
  const login = await fetch(`${runner.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  if (login.status !== 200) throw new Error(`login ${username}: ${login.status}`);
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  return async (method: string, path: string, json?: unknown) => {
    const response = await fetch(runner.url + path, {
      method,
      headers: { cookie, ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(json === undefined ? {} : { body: JSON.stringify(json) }),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  };
}

beforeAll(async () => {
  cpSync(join(fixture, 'uploads'), uploads, { recursive: true });
  runner = await startRunner(join(work, 'data'), {
    ADMIN_USERNAME: 'migrator',
    ADMIN_PASSWORD: PASSWORD,
    BCRYPT_COST: '4',
  });
}, 240_000);

afterAll(async () => {
  if (runner) await stopRunner(runner);
  rmSync(work, { recursive: true, force: true });
});

test('a dry run reports every row and writes nothing', async () => {
  const dry = await importZipline([...fromExport(), '--dry-run']);
  expect([dry.code, dry.stderr]).toEqual([
    0,
    'source: 3 users, 2 folders, 3 tags, 6 short links, 7 files (70.2 KB)\n',
  ]);
  expect(['users', 'folders', 'tags', 'urls', 'files'].map((kind) => counts(dry.report, kind))).toEqual([
    { planned: 3 },
    { planned: 2 },
    { planned: 3 },
    { planned: 6 },
    { planned: 7 },
  ]);
  const admin = await session('migrator', PASSWORD);
  expect((await admin('GET', '/api/import/zipline/status')).body).toEqual({
    users: 0,
    folders: 0,
    tags: 0,
    urls: 0,
    files: 0,
  });
}, 240_000);

test('interrupted by a missing file, run again: same end state, a taken vanity reported, a third run changes nothing', async () => {
  const admin = await session('migrator', PASSWORD);
  const taken = await admin('POST', '/api/user/urls', {
    destination: 'https://example.net/mine',
    vanity: 'docs',
  });
  expect(taken.status).toBe(200);
  const binary = exported.files.find((file: Loose) => file.size === 70000);
  renameSync(join(uploads, binary.name), join(work, binary.name));

  const first = await importZipline(fromExport());
  expect(first.code).toBe(1);
  expect(counts(first.report, 'files')).toEqual({ imported: 6, failed: 1 });
  expect(first.report.entries.find((entry: Loose) => entry.outcome === 'failed')).toEqual({
    kind: 'files',
    id: binary.id,
    label: binary.name,
    outcome: 'failed',
    reason: `${join(uploads, binary.name)} is not in the uploads folder`,
  });
  expect(counts(first.report, 'urls')).toEqual({ imported: 5, skipped: 1 });
  expect(first.report.entries.find((entry: Loose) => entry.outcome === 'skipped')).toMatchObject({
    kind: 'urls',
    label: 'docs',
    reason: expect.stringMatching(/^collision: .*docs/),
  });
  expect(first.stdout).toMatch(/failed:\n {2}files \S+ \(\S+\): .* is not in the uploads folder/);
  expect((await admin('GET', '/api/import/zipline/status')).body).toEqual({
    users: 3,
    folders: 2,
    tags: 3,
    urls: 5,
    files: 6,
  });

  renameSync(join(work, binary.name), join(uploads, binary.name));
  const second = await importZipline(fromExport());
  expect(second.code).toBe(0);
  expect(['users', 'folders', 'tags', 'urls', 'files'].map((kind) => counts(second.report, kind))).toEqual([
    { already: 3 },
    { already: 2 },
    { already: 3 },
    { already: 5, skipped: 1 },
    { already: 6, imported: 1 },
  ]);
  const status = (await admin('GET', '/api/import/zipline/status')).body;
  expect(status).toEqual({ users: 3, folders: 2, tags: 3, urls: 5, files: 7 });

  const third = await importZipline(fromExport());
  expect(third.code).toBe(0);
  expect(third.report.entries.filter((entry: Loose) => entry.outcome === 'imported')).toEqual([]);
  expect((await admin('GET', '/api/import/zipline/status')).body).toEqual(status);
}, 600_000);

test('what landed: users, files with every field, links, counters equal to the export', async () => {
  const admin = await session('migrator', PASSWORD);
  const users = (await admin('GET', '/api/users')).body as Loose[];
  const byName = new Map(users.map((user) => [user.username, user]));
  expect(['owner', 'alice', 'bob'].map((name) => byName.get(name)?.role)).toEqual(['ADMIN', 'USER', 'ADMIN']);
  expect(byName.get('bob').quota).toMatchObject({ filesQuota: 'BY_BYTES', maxUrls: 50 });
  expect(byName.get('owner').view).toMatchObject({
    enabled: true,
    embedTitle: 'owner files',
    embedColor: '#ff8800',
  });
  const ownerId = byName.get('owner').id;
  expect((await admin('PATCH', `/api/users/${ownerId}`, { password: 'owner new password' })).status).toBe(
    200,
  );
  const owner = await session('owner', 'owner new password');
  const files = (await owner('GET', '/api/user/files?page=1&perpage=50')).body.page as Loose[];
  const ownerId0 = exported.users[0].id;
  const expected = exported.files.filter((file: Loose) => file.userId === ownerId0);
  expect(files.map((file) => file.name).sort()).toEqual(expected.map((file: Loose) => file.name).sort());
  for (const source of expected) {
    const landed = files.find((file) => file.name === source.name);
    expect({
      originalName: landed.originalName,
      size: landed.size,
      type: landed.type,
      views: landed.views,
      maxViews: landed.maxViews ?? null,
      favorite: landed.favorite,
      deletesAt: landed.deletesAt ?? null,
      password: !!landed.password,
      folder: landed.folderId !== null && landed.folderId !== undefined,
      tags: (landed.tags ?? []).map((tag: Loose) => tag.name).sort(),
    }).toEqual({
      originalName: source.originalName ?? source.name, // the target keeps the public name when Zipline had none
      size: source.size,
      type: source.type,
      views: source.views,
      maxViews: source.maxViews,
      favorite: source.favorite,
      deletesAt: source.deletesAt,
      password: source.password !== null,
      folder: source.folderId !== null,
      tags: exported.userTags
        .filter((tag: Loose) => tag.files.includes(source.id))
        .map((tag: Loose) => tag.name)
        .sort(),
    });
    if (source.password) continue;
    const served = await fetch(`${runner.url}/raw/${source.name}`);
    expect(Buffer.from(await served.arrayBuffer())).toEqual(
      readFileSync(join(fixture, 'uploads', source.name)),
    );
  }
  const stats = (await owner('GET', '/api/user/stats')).body;
  expect(stats).toMatchObject({
    filesUploaded: expected.length,
    favoriteFiles: expected.filter((file: Loose) => file.favorite).length,
    storageUsed: expected.reduce((sum: number, file: Loose) => sum + file.size, 0),
    urlsCreated: exported.urls.filter((url: Loose) => url.userId === ownerId0 && url.vanity !== 'docs')
      .length,
  });
  const plain = exported.urls.find((url: Loose) => url.destination.endsWith('/plain'));
  const go = await fetch(`${runner.url}/go/${plain.code}`, { redirect: 'manual' });
  expect([go.status, go.headers.get('location')]).toEqual([302, plain.destination]);
}, 240_000);
