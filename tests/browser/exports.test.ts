import { readFileSync } from 'node:fs';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { exportKey, exportRunningKey } from '#shared/db/keys/exports';
import { EXPORT_RUN_MS, expiresAtFrom, newExportId } from '#shared/exports/model';
import { unzip } from '../support/zip.ts';
import { dashboardFixture } from './fixture.ts';

/**
 * The Export tab of Settings in Chromium against `npm start` (issue 36): a running export's progress
 * (files and bytes), the API's refusal of a second one shown as it says it, deleting the running one,
 * then a real export run by the runner's export function, downloaded through its link (the zip holds
 * the files and the manifest) and deleted. axe in light, dark and at phone width;
 * EXPORT_SCREENSHOTS=<dir> keeps screenshots to look at.
 */
const ui = dashboardFixture('exports', { screenshots: 'EXPORT_SCREENSHOTS', openTimeoutMs: 300_000 });

/** An export a third through a large library, as a run writes it, straight into the runner's table. */
async function writeRunningExport(userId: string) {
  const documents = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: ui.runner.dynamoEndpoint,
      region: 'local',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
  );
  const now = Date.now();
  const at = new Date(now).toISOString();
  const id = newExportId(now);
  const progress = { files: 50_000, filesDone: 16_500, bytes: 10 * 1024 ** 3, bytesDone: 3.3 * 1024 ** 3 };
  const item = { id, userId, state: 'running', ...progress, size: 0, createdAt: at, updatedAt: at };
  await documents.send(
    new PutCommand({
      TableName: 'file-service',
      Item: { ...exportKey(userId, id), entity: 'EXPORT', ...item, expiresAt: expiresAtFrom(now) },
    }),
  );
  await documents.send(
    new PutCommand({
      TableName: 'file-service',
      Item: { ...exportRunningKey(userId), exportId: id, until: now + EXPORT_RUN_MS },
    }),
  );
  documents.destroy();
}

const exports = () => ui.page.getByRole('list', { name: 'Exports' });

async function confirmDelete(label: RegExp) {
  await ui.page.getByRole('button', { name: label }).click();
  await ui.page.getByRole('dialog').getByRole('button', { name: 'Delete export' }).click();
}

test('a running export shows its progress, a second is refused with the API message; a real one downloads and deletes', async () => {
  await ui.signIn();
  const uploads = [
    ['notes.txt', 'text/plain', Buffer.from('exported notes')],
    ['data.json', 'application/json', Buffer.from('{"exported": true}')],
  ] as const;
  const names: string[] = [];
  for (const [name, mimeType, buffer] of uploads) {
    const answer = await ui.page.request.post(`${ui.runner.url}/api/upload`, {
      multipart: { file: { name, mimeType, buffer } },
    });
    expect(answer.status()).toBe(200);
    names.push(((await answer.json()) as { files: { name: string }[] }).files[0]?.name as string);
  }
  const user = await (await ui.page.request.get(`${ui.runner.url}/api/user`)).json();
  await writeRunningExport(user.user.id);

  await ui.page.goto(`${ui.runner.url}/settings?tab=export`);
  const running = exports().getByRole('listitem');
  await running.getByText('Running').waitFor();
  await running.getByText('16,500 of 50,000 files · 3.3 GB of 10 GB').waitFor();
  await running.getByRole('progressbar').waitFor();

  await ui.page.getByRole('button', { name: 'Start an export' }).click();
  await ui.page
    .getByRole('alert')
    .getByText('an export is already running: wait for it to finish, or delete it')
    .waitFor();
  await ui.everyLook('export-running');

  await confirmDelete(/^Delete the export of/);
  await ui.page.getByText('No exports yet.').waitFor();

  await ui.page.getByRole('button', { name: 'Start an export' }).click();
  // The runner's export function makes it; the tab follows its progress until it is ready.
  const ready = exports().getByRole('listitem');
  await ready.getByText('Ready').waitFor();
  await ready.getByText(/^2 files · .* zip · until /).waitFor();
  await expect(ui.page.getByRole('alert').count()).resolves.toBe(0);
  await ui.everyLook('export-ready');

  const [download] = await Promise.all([
    ui.page.waitForEvent('download'),
    ui.page.getByRole('link', { name: /^Download the export of/ }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^export-\d{4}-\d{2}-\d{2}-[0-9a-z]{26}\.zip$/);
  const entries = await unzip(readFileSync(await download.path()));
  expect([...entries.keys()].sort()).toEqual(
    ['manifest.json', ...names.map((name) => `files/${name}`)].sort(),
  );
  expect(entries.get(`files/${names[0]}`)?.toString()).toBe('exported notes');
  const manifest = JSON.parse(entries.get('manifest.json')?.toString() as string);
  expect(manifest.files.map((file: { originalName: string }) => file.originalName).sort()).toEqual([
    'data.json',
    'notes.txt',
  ]);

  await confirmDelete(/^Delete the export of/);
  await ui.page.getByText('No exports yet.').waitFor();
  expect(await (await ui.page.request.get(`${ui.runner.url}/api/user/export`)).json()).toEqual([]);
}, 600_000);
