import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { uploadsFolder } from '../../tools/import-zipline/bytes.ts';
import { readExportFile } from '../../tools/import-zipline/export-file.ts';
import { parseOptions } from '../../tools/import-zipline/options.ts';
import { planSnapshot } from '../../tools/import-zipline/plan.ts';
import { formatBytes, formatDuration, Progress } from '../../tools/import-zipline/progress.ts';
import { Report } from '../../tools/import-zipline/report.ts';

/** The import command's parts that need no target: options, the uploads folder, progress, report, dry run. */
const fixture = join(import.meta.dirname, '..', 'fixtures', 'zipline-v4');

test('progress: files and bytes done, rate and time left, from the clock', () => {
  let now = 1_000_000;
  const progress = new Progress(300, 1_200_000_000, () => now);
  expect(progress.line()).toBe('files 0/300 · 0 B/1.2 GB · 0 B/s · ? left');
  now += 10_000;
  progress.addBytes(45_100_000);
  for (let i = 0; i < 12; i++) progress.fileDone();
  expect(progress.line()).toBe('files 12/300 · 45.1 MB/1.2 GB · 4.5 MB/s · 4m 16s left');
  expect([formatBytes(999), formatBytes(1000), formatDuration(3 * 3600 + 120)]).toEqual([
    '999 B',
    '1.0 KB',
    '3h 2m',
  ]);
});

test('report: counts per kind and outcome, then each skipped and failed row with why', () => {
  const report = new Report();
  report.add({ kind: 'users', id: 'u1', label: 'alice', outcome: 'imported' });
  report.add({ kind: 'files', id: 'f1', label: 'a.png', outcome: 'already' });
  report.add({
    kind: 'urls',
    id: 'l1',
    label: 'docs',
    outcome: 'skipped',
    reason: 'collision: docs is taken',
  });
  report.add({
    kind: 'files',
    id: 'f2',
    label: 'b.png',
    outcome: 'failed',
    reason: 'b.png is not in the uploads folder',
  });
  report.notes.push('a note');
  expect(report.text()).toBe(
    [
      '         imported  already there  skipped  failed',
      'users    1         0              0        0',
      'folders  0         0              0        0',
      'tags     0         0              0        0',
      'urls     0         0              1        0',
      'files    0         1              0        1',
      '',
      'skipped:',
      '  urls docs (l1): collision: docs is taken',
      '',
      'failed:',
      '  files b.png (f2): b.png is not in the uploads folder',
      '',
      'notes:',
      '  a note',
    ].join('\n'),
  );
  expect(report.failed).toBe(1);
});

test('options: a source, the bytes for an export, a target user; secrets from the environment', () => {
  const base = ['--from', 'http://zipline.test', '--target-user', 'admin'];
  expect(parseOptions(base, { ZIPLINE_TOKEN: 't0k' })).toMatchObject({
    from: 'http://zipline.test',
    token: 't0k',
    target: 'http://127.0.0.1:3000',
    concurrency: 4,
    dryRun: false,
  });
  expect(parseOptions([...base, '--token', 'x', '--verify'], {}).verify).toBe('links');
  expect(parseOptions([...base, '--token', 'x', '--verify', 'bytes'], {}).verify).toBe('bytes');
  expect(parseOptions(['--export', 'e.json', '--uploads', 'u', '--dry-run'], {})).toMatchObject({
    dryRun: true,
    uploads: 'u',
  });
  expect(() => parseOptions(['--target-user', 'a'], {})).toThrow(
    'give --from <zipline url> or --export <file>',
  );
  expect(() => parseOptions(base, {})).toThrow(/--from needs --token/);
  expect(() => parseOptions(['--export', 'e.json', '--target-user', 'a'], {})).toThrow(
    /--uploads <dir> or --from/,
  );
  expect(() => parseOptions(['--export', 'e.json', '--uploads', 'u'], {})).toThrow(/--target-user/);
  expect(() => parseOptions([...base, '--token', 'x', '--concurrency', '9'], {})).toThrow(/1 to 4/);
  expect(() => parseOptions([...base, '--token', 'x', '--colour'], {})).toThrow(/Unknown option '--colour'/);
});

test('the uploads folder gives a name in it, never a path out of it, and checks the size Zipline recorded', async () => {
  const folder = uploadsFolder(join(fixture, 'uploads'));
  const snapshot = await readExportFile(join(fixture, 'export.json'));
  const photo = snapshot.files.find((file) => file.name.endsWith('.png')) as (typeof snapshot.files)[number];
  const found = await folder(photo);
  expect('stream' in found).toBe(true);
  if ('stream' in found) found.stream.destroy();
  expect(await folder({ ...photo, name: '../export.json' })).toEqual({
    missing: 'the name "../export.json" is not a file name',
  });
  expect(await folder({ ...photo, size: 71 })).toEqual({
    missing: expect.stringMatching(/has 70 bytes, Zipline recorded 71$/),
  });
  expect(await folder({ ...photo, name: 'gone.png' })).toEqual({
    missing: expect.stringMatching(/gone.png is not in the uploads folder$/),
  });
});

test('dry run: every row planned, missing bytes failed with why, codes equal but for case reported', async () => {
  const uploads = mkdtempSync(join(tmpdir(), 'zipline-uploads-'));
  cpSync(join(fixture, 'uploads'), uploads, { recursive: true });
  const snapshot = await readExportFile(join(fixture, 'export.json'));
  const [first] = snapshot.files;
  writeFileSync(join(uploads, first?.name as string), 'changed');
  snapshot.urls.push({
    ...(snapshot.urls[4] as (typeof snapshot.urls)[number]),
    id: 'copy',
    code: 'zzz',
    vanity: 'mixed-case',
  });
  const report = new Report();
  await planSnapshot(snapshot, uploadsFolder(uploads), report);
  expect(
    ['users', 'folders', 'tags', 'urls', 'files'].map((kind) => report.count(kind as never, 'planned')),
  ).toEqual([3, 2, 3, 6, 6]);
  expect(report.entries.filter((entry) => entry.outcome !== 'planned')).toEqual([
    {
      kind: 'urls',
      id: 'copy',
      label: 'mixed-case',
      outcome: 'skipped',
      reason: "collision: its name is also Mixed-Case's (names are case-insensitive here)",
    },
    {
      kind: 'files',
      id: first?.id,
      label: first?.name,
      outcome: 'failed',
      reason: expect.stringMatching(/has 7 bytes, Zipline recorded 19$/),
    },
  ]);
});
