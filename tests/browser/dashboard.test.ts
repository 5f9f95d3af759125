import { createHash } from 'node:crypto';
import type { BrowserContext, Page } from 'playwright-core';
import {
  closeDashboard,
  type Dashboard,
  openDashboard,
  seriousA11yViolations,
  signIn,
  signOut,
} from '../support/dashboard.ts';
import { PNG_1X1 } from '../support/pixels.ts';
import type { Runner } from '../support/runner.ts';

/**
 * A day with the dashboard in Chromium against `npm start` (DynamoDB Local, s3rver): uploads (picker,
 * drag-and-drop, one file over the direct limit through S3), the file list (search, sort, pages,
 * favorites, open, rename, delete, bulk delete), and axe on each page.
 */
const ADMIN = { username: 'admin', password: 'admin password' };
let dashboard: Dashboard;
let runner: Runner;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  dashboard = await openDashboard('file-service-browser-', ADMIN);
  ({ runner, context, page } = dashboard);
}, 120_000);

afterAll(() => closeDashboard(dashboard));

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const a11y = async () => expect(await seriousA11yViolations(page)).toEqual([]);
const nav = (name: string) => page.getByRole('navigation').getByRole('link', { name, exact: true });
const rows = () => page.locator('tbody tr');

const shownNames = () =>
  page.evaluate(() =>
    [...document.querySelectorAll('tbody tr td:nth-child(2) button')].map((cell) => cell.textContent),
  );

/** Waits until the table shows exactly these original names (in this order). */
async function tableShows(names: string[]) {
  try {
    await page.waitForFunction(
      (expected) =>
        JSON.stringify(
          [...document.querySelectorAll('tbody tr td:nth-child(2) button')].map((cell) => cell.textContent),
        ) === JSON.stringify(expected),
      names,
    );
  } catch (error) {
    throw new Error(`the table shows ${JSON.stringify(await shownNames())}, not ${JSON.stringify(names)}`, {
      cause: error,
    });
  }
}

async function fileAction(name: string, action: string) {
  await page.getByRole('button', { name: `Actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: action }).click();
}

test('upload, browse, change and delete files', async () => {
  await signIn(dashboard, ADMIN.username, ADMIN.password);
  await page.getByRole('navigation').getByRole('link', { name: 'Files' }).click();
  await page.getByRole('heading', { name: 'No files yet' }).waitFor();
  await a11y();

  // Fourteen files straight through the API with the token, so there is a second page.
  const token = await page.evaluate(
    async () => (await (await fetch('/api/user/token')).json()).token as string,
  );
  for (let index = 1; index <= 14; index += 1) {
    const form = new FormData();
    form.append(
      'file',
      new Blob([`note ${index}`.padEnd(100 + index, '.')], { type: 'text/plain' }),
      `note-${String(index).padStart(2, '0')}.txt`,
    );
    expect(
      (
        await fetch(`${runner.url}/api/upload`, {
          method: 'POST',
          headers: { authorization: token },
          body: form,
        })
      ).status,
    ).toBe(200);
  }

  // Upload page: picker (three files, one over the direct limit) and drag-and-drop.
  await nav('Upload').click();
  await page.getByRole('heading', { name: 'Upload' }).waitFor();
  await a11y();
  const big = Buffer.alloc(5 * 1024 * 1024, 'big file bytes ');
  const picture = PNG_1X1;
  await page.locator('input[type=file]').setInputFiles([
    { name: 'picture.png', mimeType: 'image/png', buffer: picture },
    { name: 'big.bin', mimeType: 'application/octet-stream', buffer: big },
    { name: 'readme.txt', mimeType: 'text/plain', buffer: Buffer.from('read me') },
  ]);
  const dropped = await page.evaluateHandle(() => {
    const transfer = new DataTransfer();
    transfer.items.add(new File(['dropped bytes'], 'dropped.txt', { type: 'text/plain' }));
    return transfer;
  });
  const dropArea = page.getByLabel('Drop files here or press Enter to choose files');
  await dropArea.dispatchEvent('dragenter', { dataTransfer: dropped });
  await dropArea.dispatchEvent('drop', { dataTransfer: dropped });
  for (const name of ['picture.png', 'big.bin', 'readme.txt', 'dropped.txt']) {
    await page.getByRole('button', { name: `Copy link to ${name}` }).waitFor();
  }
  expect(await page.getByRole('alert').count()).toBe(0);

  // Files: 18 in all, 15 on the first page, the rest on the second.
  await nav('Files').click();
  await page.getByText('18 files').waitFor();
  // The grid previews the image through the owner's route and S3 (CSP and CORS allow it): its
  // thumbnail once the runner's object-created feed has made it, the image itself until then.
  await page.waitForFunction(() =>
    [...document.images].some(
      (image) => /\/(raw|thumbnail)$/.test(image.src) && image.complete && image.naturalWidth > 0,
    ),
  );
  await a11y();
  await page.locator('label', { hasText: 'Table' }).click();
  await rows().nth(14).waitFor();
  expect(await rows().count()).toBe(15);
  await a11y();
  await page.getByRole('button', { name: 'Page 2' }).click();
  await tableShows(['note-03.txt', 'note-02.txt', 'note-01.txt']);

  // Sort by size, smallest first: "read me", "dropped bytes", the PNG, then the notes by length.
  await page.getByRole('combobox', { name: 'Sort by' }).click();
  await page.getByRole('option', { name: 'Size' }).click();
  await page.waitForFunction(
    () => document.querySelector('tbody tr td:nth-child(2) button')?.textContent === 'big.bin',
  );
  await page.getByRole('button', { name: 'Sort ascending' }).click();
  await tableShows([
    'readme.txt',
    'dropped.txt',
    'picture.png',
    ...Array.from({ length: 12 }, (_, i) => `note-${String(i + 1).padStart(2, '0')}.txt`),
  ]);

  // Search (debounced) by original name.
  await page.getByRole('combobox', { name: 'Search in' }).click();
  await page.getByRole('option', { name: 'Original name' }).click();
  await page.getByLabel('Search', { exact: true }).fill('big');
  await tableShows(['big.bin']);

  // Open: the owner's link gives the bytes back and counts no view.
  await page.getByRole('button', { name: 'Actions for big.bin' }).click();
  const openHref = await page.getByRole('menuitem', { name: 'Open' }).getAttribute('href');
  await page.keyboard.press('Escape');
  const opened = await context.request.get(`${runner.url}${openHref}`);
  expect(sha(Buffer.from(await opened.body()))).toBe(sha(big));

  // Favorite, then only favorites.
  await page.getByLabel('Search', { exact: true }).fill('');
  await page.getByRole('button', { name: 'Add readme.txt to favorites' }).click();
  await page.getByRole('button', { name: 'Remove readme.txt from favorites' }).waitFor();
  await page.getByRole('switch', { name: 'Favorites only' }).click();
  await tableShows(['readme.txt']);
  await page.getByText('1 file in favorites').waitFor();
  await page.getByRole('switch', { name: 'Favorites only' }).click();
  await page.getByText('18 files').waitFor();

  // Rename, and limit the views.
  await fileAction('dropped.txt', 'Edit details');
  await page.getByRole('dialog').getByLabel(/^Name/).fill('renamed.txt');
  await page.getByLabel('Max views').fill('3');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('button', { name: 'Actions for renamed.txt' }).waitFor();
  await page
    .getByRole('row', { name: /renamed\.txt/ })
    .getByText('0 / 3')
    .waitFor();

  // Delete one with confirmation, then two at once.
  await fileAction('renamed.txt', 'Delete');
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await page.getByText('17 files').waitFor();
  await page.getByRole('checkbox', { name: 'Select note-01.txt' }).click();
  await page.getByRole('checkbox', { name: 'Select note-02.txt' }).click();
  await page.getByRole('button', { name: 'Delete selected' }).click();
  await page.getByRole('dialog').getByText('Delete 2 files?').waitFor();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await page.getByText('15 files').waitFor();
  await signOut(dashboard, ADMIN.username);
}, 600_000);
