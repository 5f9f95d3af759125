import { createHash } from 'node:crypto';
import { signOut } from '../support/dashboard.ts';
import { PNG_1X1 } from '../support/pixels.ts';
import { ADMIN, dashboardFixture } from './fixture.ts';

/**
 * A day with the dashboard in Chromium against `npm start` (DynamoDB Local, s3rver): uploads (picker,
 * drag-and-drop, one file over the direct limit through S3), the file list (search, sort, pages,
 * favorites, open, rename, delete, bulk delete), and axe on each page.
 */
const ui = dashboardFixture('dashboard');

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const nav = (name: string) => ui.page.getByRole('navigation').getByRole('link', { name, exact: true });
const rows = () => ui.page.locator('tbody tr');

const shownNames = () =>
  ui.page.evaluate(() =>
    [...document.querySelectorAll('tbody tr td:nth-child(2) button')].map((cell) => cell.textContent),
  );

/** Waits until the table shows exactly these original names (in this order). */
async function tableShows(names: string[]) {
  try {
    await ui.page.waitForFunction(
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
  await ui.page.getByRole('button', { name: `Actions for ${name}` }).click();
  await ui.page.getByRole('menuitem', { name: action }).click();
}

test('upload, browse, change and delete files', async () => {
  await ui.signIn();
  await ui.page.getByRole('navigation').getByRole('link', { name: 'Files' }).click();
  await ui.page.getByRole('heading', { name: 'No files yet' }).waitFor();
  await ui.a11y();

  // Fourteen files straight through the API with the token, so there is a second page.
  const token = await ui.page.evaluate(
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
        await fetch(`${ui.runner.url}/api/upload`, {
          method: 'POST',
          headers: { authorization: token },
          body: form,
        })
      ).status,
    ).toBe(200);
  }

  // Upload page: picker (three files, one over the direct limit) and drag-and-drop.
  await nav('Upload').click();
  await ui.page.getByRole('heading', { name: 'Upload' }).waitFor();
  await ui.a11y();
  const big = Buffer.alloc(5 * 1024 * 1024, 'big file bytes ');
  const picture = PNG_1X1;
  await ui.page.locator('input[type=file]').setInputFiles([
    { name: 'picture.png', mimeType: 'image/png', buffer: picture },
    { name: 'big.bin', mimeType: 'application/octet-stream', buffer: big },
    { name: 'readme.txt', mimeType: 'text/plain', buffer: Buffer.from('read me') },
  ]);
  const dropped = await ui.page.evaluateHandle(() => {
    const transfer = new DataTransfer();
    transfer.items.add(new File(['dropped bytes'], 'dropped.txt', { type: 'text/plain' }));
    return transfer;
  });
  const dropArea = ui.page.getByLabel('Drop files here or press Enter to choose files');
  await dropArea.dispatchEvent('dragenter', { dataTransfer: dropped });
  await dropArea.dispatchEvent('drop', { dataTransfer: dropped });
  for (const name of ['picture.png', 'big.bin', 'readme.txt', 'dropped.txt']) {
    await ui.page.getByRole('button', { name: `Copy link to ${name}` }).waitFor();
  }
  expect(await ui.page.getByRole('alert').count()).toBe(0);

  // Files: 18 in all, 15 on the first page, the rest on the second.
  await nav('Files').click();
  await ui.page.getByText('18 files').waitFor();
  // The grid previews the image through the owner's route and S3 (CSP and CORS allow it): its
  // thumbnail once the runner's object-created feed has made it, the image itself until then.
  await ui.page.waitForFunction(() =>
    [...document.images].some(
      (image) => /\/(raw|thumbnail)$/.test(image.src) && image.complete && image.naturalWidth > 0,
    ),
  );
  await ui.a11y();
  await ui.page.locator('label', { hasText: 'Table' }).click();
  await rows().nth(14).waitFor();
  expect(await rows().count()).toBe(15);
  await ui.a11y();
  await ui.page.getByRole('button', { name: 'Page 2' }).click();
  await tableShows(['note-03.txt', 'note-02.txt', 'note-01.txt']);

  // Sort by size, smallest first: "read me", "dropped bytes", the PNG, then the notes by length.
  await ui.page.getByRole('combobox', { name: 'Sort by' }).click();
  await ui.page.getByRole('option', { name: 'Size' }).click();
  await ui.page.waitForFunction(
    () => document.querySelector('tbody tr td:nth-child(2) button')?.textContent === 'big.bin',
  );
  await ui.page.getByRole('button', { name: 'Sort ascending' }).click();
  await tableShows([
    'readme.txt',
    'dropped.txt',
    'picture.png',
    ...Array.from({ length: 12 }, (_, i) => `note-${String(i + 1).padStart(2, '0')}.txt`),
  ]);

  // Search (debounced) by original name.
  await ui.page.getByRole('combobox', { name: 'Search in' }).click();
  await ui.page.getByRole('option', { name: 'Original name' }).click();
  await ui.page.getByLabel('Search', { exact: true }).fill('big');
  await tableShows(['big.bin']);

  // Open: the owner's link gives the bytes back and counts no view.
  await ui.page.getByRole('button', { name: 'Actions for big.bin' }).click();
  const openHref = await ui.page.getByRole('menuitem', { name: 'Open' }).getAttribute('href');
  await ui.page.keyboard.press('Escape');
  const opened = await ui.context.request.get(`${ui.runner.url}${openHref}`);
  expect(sha(Buffer.from(await opened.body()))).toBe(sha(big));

  // Favorite, then only favorites.
  await ui.page.getByLabel('Search', { exact: true }).fill('');
  await ui.page.getByRole('button', { name: 'Add readme.txt to favorites' }).click();
  await ui.page.getByRole('button', { name: 'Remove readme.txt from favorites' }).waitFor();
  await ui.page.getByRole('switch', { name: 'Favorites only' }).click();
  await tableShows(['readme.txt']);
  await ui.page.getByText('1 file in favorites').waitFor();
  await ui.page.getByRole('switch', { name: 'Favorites only' }).click();
  await ui.page.getByText('18 files').waitFor();

  // Rename, and limit the views.
  await fileAction('dropped.txt', 'Edit details');
  await ui.page.getByRole('dialog').getByLabel(/^Name/).fill('renamed.txt');
  await ui.page.getByLabel('Max views').fill('3');
  await ui.page.getByRole('button', { name: 'Save' }).click();
  await ui.page.getByRole('button', { name: 'Actions for renamed.txt' }).waitFor();
  await ui.page
    .getByRole('row', { name: /renamed\.txt/ })
    .getByText('0 / 3')
    .waitFor();

  // Delete one with confirmation, then two at once.
  await fileAction('renamed.txt', 'Delete');
  await ui.page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await ui.page.getByText('17 files').waitFor();
  await ui.page.getByRole('checkbox', { name: 'Select note-01.txt' }).click();
  await ui.page.getByRole('checkbox', { name: 'Select note-02.txt' }).click();
  await ui.page.getByRole('button', { name: 'Delete selected' }).click();
  await ui.page.getByRole('dialog').getByText('Delete 2 files?').waitFor();
  await ui.page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await ui.page.getByText('15 files').waitFor();
  await signOut(ui, ADMIN.username);
}, 600_000);
