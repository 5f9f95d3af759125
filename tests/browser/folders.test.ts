import type { Page } from 'playwright-core';
import { closeDashboard, type Dashboard, openDashboard, signIn } from '../support/dashboard.ts';

/**
 * The Folders page and the bulk bar's move in Chromium against `npm start` (issue 35): create a
 * folder, make it public (its link appears), move two files into it from the files page in one bulk
 * request, open its files. Screenshots (light, dark, phone) when FOLDERS_SCREENSHOTS names a folder.
 */
const ADMIN = { username: 'admin', password: 'admin password' };
let dashboard: Dashboard;
let page: Page;
const SHOTS = process.env.FOLDERS_SCREENSHOTS;

beforeAll(async () => {
  dashboard = await openDashboard('file-service-browser-folders-', ADMIN);
  ({ page } = dashboard);
}, 120_000);

afterAll(() => closeDashboard(dashboard));

test('create a public folder, move two files into it in bulk, open its files', async () => {
  await signIn(dashboard, ADMIN.username, ADMIN.password);
  const uploaded = await page.evaluate(async () => {
    const form = new FormData();
    form.append('file', new Blob(['alpha'], { type: 'text/plain' }), 'alpha.txt');
    form.append('file', new Blob(['beta'], { type: 'text/plain' }), 'beta.txt');
    form.append('file', new Blob(['gamma'], { type: 'text/plain' }), 'gamma.txt');
    const answer = await fetch('/api/upload', { method: 'POST', body: form });
    return answer.status;
  });
  expect(uploaded).toBe(200);

  await page.getByRole('navigation').getByRole('link', { name: 'Folders' }).click();
  await page.getByRole('heading', { name: 'Folders' }).waitFor();
  await page.getByText('No folders yet.').waitFor();
  await page.getByRole('textbox', { name: 'New folder' }).fill('Trips');
  await page.getByRole('button', { name: 'Create' }).click();
  await page.getByRole('textbox', { name: 'Name of Trips' }).waitFor();
  await page.getByRole('switch', { name: 'Public' }).click();
  await page.getByRole('link', { name: /^\/folder\// }).waitFor();

  await page.getByRole('navigation').getByRole('link', { name: 'Files' }).click();
  await page.getByRole('checkbox', { name: 'Select alpha.txt' }).click();
  await page.getByRole('checkbox', { name: 'Select beta.txt' }).click();
  await page.getByRole('button', { name: 'Move to folder' }).click();
  const requests: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/user/files/'))
      requests.push(`${request.method()} ${new URL(request.url()).pathname}`);
  });
  await page.getByRole('menuitem', { name: 'Trips' }).click();
  await page.getByText('2 files moved to Trips').waitFor();
  expect(requests.filter((request) => !request.startsWith('GET'))).toEqual([
    'PATCH /api/user/files/transaction',
  ]);

  await page.getByRole('navigation').getByRole('link', { name: 'Folders' }).click();
  await page.getByRole('link', { name: '2 files' }).waitFor();
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/folders-light.png`, fullPage: true });
  await page.emulateMedia({ colorScheme: 'dark' });
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/folders-dark.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  // Loaded at that width: the navigation starts closed, not sliding away.
  await page.reload();
  await page.getByRole('link', { name: '2 files' }).waitFor();
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/folders-phone.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.reload();
  await page.getByRole('link', { name: '2 files' }).click();
  await page.getByRole('checkbox', { name: 'Select alpha.txt' }).waitFor();
  await page.getByRole('checkbox', { name: 'Select beta.txt' }).waitFor();
  expect(await page.getByRole('checkbox', { name: 'Select gamma.txt' }).count()).toBe(0);
}, 600_000);
