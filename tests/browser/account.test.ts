import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
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
 * The account side of the dashboard in Chromium against `npm start` (DynamoDB Local, s3rver):
 * settings (username, avatar, link settings that survive a reload, password), the token from the
 * user menu used with fetch and then reset, and users (an ADMIN creates, edits and deletes a USER,
 * who sees no users page and gets the 403 shown as such). axe checks each page.
 */
const ADMIN = { username: 'admin', password: 'admin password' };
let dashboard: Dashboard;
let runner: Runner;
let browser: Browser;
let page: Page;
/** The SUPERADMIN's token, once the token test has reset it. */
let bossToken = '';

beforeAll(async () => {
  dashboard = await openDashboard('file-service-browser-account-', ADMIN);
  ({ runner, browser, page } = dashboard);
}, 120_000);

afterAll(() => closeDashboard(dashboard));

const a11y = async () => expect(await seriousA11yViolations(page)).toEqual([]);
const nav = (name: string) => page.getByRole('navigation').getByRole('link', { name, exact: true });
const dialog = () => page.getByRole('dialog');
const userStatus = (token: string) =>
  fetch(`${runner.url}/api/user`, { headers: { authorization: token } }).then((answer) => answer.status);

/** A second browser (another device) signed in as this user: its session cookie. */
async function otherDevice(username: string, password: string) {
  const other = await browser.newContext();
  const answer = await other.request.post(`${runner.url}/api/auth/login`, {
    data: { username, password },
    headers: { origin: runner.url },
  });
  expect(answer.status()).toBe(200);
  return other;
}

test('settings: username, avatar, link settings after a reload, password', async () => {
  await signIn(dashboard, ADMIN.username, ADMIN.password);
  await page.getByRole('button', { name: `User menu for ${ADMIN.username}` }).click();
  await page.getByRole('menuitem', { name: 'Settings' }).click();
  await page.getByRole('heading', { name: 'Settings' }).waitFor();
  await a11y();

  await page.getByRole('textbox', { name: 'Username' }).fill('boss');
  await page.getByRole('button', { name: 'Save username' }).click();
  await page.getByRole('button', { name: 'User menu for boss' }).waitFor();

  // The avatar: picked, previewed before saving, saved (it survives a reload), removed.
  await page
    .locator('input[type=file]')
    .setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: PNG_1X1 });
  await page.getByRole('img', { name: 'Your avatar' }).waitFor();
  await page.getByRole('button', { name: 'Save avatar' }).click();
  await page.getByRole('button', { name: 'Remove avatar' }).waitFor();
  await page.reload();
  expect(await page.getByRole('img', { name: 'Your avatar' }).getAttribute('src')).toBe(
    `data:image/png;base64,${PNG_1X1.toString('base64')}`,
  );
  await page.getByRole('button', { name: 'Remove avatar' }).click();
  await dialog().getByText('Remove your avatar?').waitFor();
  await dialog().getByRole('button', { name: 'Remove avatar' }).click();
  await page.getByRole('button', { name: 'Choose image' }).waitFor();
  await page.getByRole('img', { name: 'Your avatar' }).waitFor({ state: 'detached' });

  // Link settings, with the embed previewed live; they are what the page shows after a reload.
  await page.getByRole('tab', { name: 'Links and embeds' }).click();
  await page.getByRole('switch', { name: 'Add an embed to links' }).click();
  await page.getByLabel('Title', { exact: true }).fill('Shared by {user.username}');
  await page.getByLabel('Preview').getByText('Shared by boss').waitFor();
  await a11y();
  await page.getByRole('button', { name: 'Save link settings' }).click();
  await page.getByText('Link and embed settings saved').waitFor();
  await page.reload();
  await page.getByLabel('Preview').getByText('Shared by boss').waitFor();
  expect(await page.getByLabel('Title', { exact: true }).inputValue()).toBe('Shared by {user.username}');
  expect(await page.getByRole('switch', { name: 'Add an embed to links' }).isChecked()).toBe(true);

  // The password: confirmed, the current one proven; other sessions end, this one stays.
  const laptop = await otherDevice('boss', ADMIN.password);
  await page.getByRole('tab', { name: 'Account' }).click();
  await page.getByLabel(/^Current password/).fill('not my password');
  await page.getByLabel(/^New password/).fill('a new password');
  await page.getByLabel(/^Confirm new password/).fill('a new passwort');
  await page.getByText('The passwords differ').waitFor();
  await page.getByLabel(/^Confirm new password/).fill('a new password');
  await page.getByRole('button', { name: 'Change password' }).click();
  await page.getByRole('alert').getByText('currentPassword is not the current password').waitFor();
  await page.getByLabel(/^Current password/).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Change password' }).click();
  await page.getByText('Password changed; your other sessions are signed out').waitFor();
  expect(await page.getByLabel(/^Current password/).inputValue()).toBe('');
  expect((await laptop.request.get(`${runner.url}/api/user`)).status()).toBe(401);
  await laptop.close();
  await page.reload();
  await page.getByRole('button', { name: 'User menu for boss' }).waitFor();
  await signOut(dashboard, 'boss');
  await page.getByLabel('Username').fill('boss');
  await page.getByLabel(/^Password/).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('alert').getByText('invalid username or password').waitFor();
  await signIn(dashboard, 'boss', 'a new password');
}, 300_000);

test('the token from the user menu works with fetch; after a reset it is refused', async () => {
  // "Copy token" copies at once and says so; no dialog in between.
  await page.evaluate(() => navigator.clipboard.writeText('nothing yet'));
  await page.getByRole('button', { name: 'User menu for boss' }).click();
  await page.getByRole('menuitem', { name: 'Copy token' }).click();
  await page.getByText('API token copied').waitFor();
  expect(await dialog().count()).toBe(0);
  await a11y();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).not.toBe('nothing yet');
  const me = await fetch(`${runner.url}/api/user`, { headers: { authorization: copied } });
  expect(me.status).toBe(200);
  expect(((await me.json()) as { user: { username: string } }).user.username).toBe('boss');

  // The ShareX config carries this service's address and the token.
  await page.goto(`${runner.url}/settings?tab=uploaders`);
  await page.getByRole('button', { name: 'ShareX (.sxcu)' }).waitFor();
  await a11y();
  const [sxcu] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'ShareX (.sxcu)' }).click(),
  ]);
  expect(JSON.parse(readFileSync((await sxcu.path()) as string, 'utf8'))).toMatchObject({
    RequestURL: `${runner.url}/api/upload`,
    Headers: { authorization: copied },
  });
  // ShareX's one request has a limit, and the page says so; the script takes larger files its way.
  await page.getByText(/ShareX sends each file in one request, which takes at most 4\sMiB/).waitFor();
  const [script] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Flameshot / curl script' }).click(),
  ]);
  const shell = readFileSync((await script.path()) as string, 'utf8');
  expect(shell).toContain(`TOKEN='${copied}'`);
  expect(shell).toContain(`"$SERVICE/api/user/files/uploads"`);

  await page.getByRole('button', { name: 'Reset token' }).click();
  await dialog().getByRole('button', { name: 'Reset token' }).click();
  await page.getByText('A new token is in place').waitFor();
  expect(await userStatus(copied)).toBe(401);
  await page.getByRole('button', { name: 'Copy token' }).click();
  await page.getByRole('button', { name: 'Copied' }).waitFor();
  const renewed = await page.evaluate(() => navigator.clipboard.readText());
  expect(renewed).not.toBe(copied);
  expect(await userStatus(renewed)).toBe(200);
  bossToken = renewed;
}, 120_000);

test('an ADMIN creates, edits and deletes a USER, who sees no users page', async () => {
  // The SUPERADMIN's ADMIN: its token alone may not make one (a session must), so the page's own
  // session asks; the UI's create form is driven below.
  const byToken = await fetch(`${runner.url}/api/users`, {
    method: 'POST',
    headers: { authorization: bossToken, 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'sam', password: 'sam password', role: 'ADMIN' }),
  });
  expect(byToken.status).toBe(403);
  const bySession = await page.evaluate(async () => {
    const answer = await fetch('/api/users', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'sam', password: 'sam password', role: 'ADMIN' }),
    });
    return answer.status;
  });
  expect(bySession).toBe(200);
  await signOut(dashboard, 'boss');
  await signIn(dashboard, 'sam', 'sam password');
  await nav('Users').click();
  await page.getByRole('heading', { name: 'Users' }).waitFor();
  await page.getByRole('button', { name: 'Create user' }).click();
  await dialog().getByLabel('Username').fill('member');
  await dialog()
    .getByLabel(/^Password/)
    .fill('member password');
  await a11y();
  await dialog().getByRole('button', { name: 'Create user' }).click();
  await page.getByRole('row', { name: /member/ }).waitFor();
  await a11y();

  // Edit what an ADMIN may: name, password, quota; the only role it can give is USER.
  await page.getByRole('button', { name: 'Edit member' }).click();
  await dialog().getByLabel('Username').fill('robin');
  await dialog()
    .getByLabel(/^New password/)
    .fill('robin password');
  await dialog().getByRole('combobox', { name: 'Role' }).click();
  expect(await page.getByRole('option').allTextContents()).toEqual(['USER']);
  await page.keyboard.press('Escape');
  await dialog().getByRole('combobox', { name: 'Quota' }).click();
  await page.getByRole('option', { name: 'Limit by number of files' }).click();
  await dialog().getByLabel('Maximum files').fill('5');
  await dialog().getByRole('textbox', { name: 'Maximum short links' }).fill('3');
  await dialog().getByRole('button', { name: 'Save' }).click();
  await page.getByRole('row', { name: /robin/ }).getByText('5 files', { exact: true }).waitFor();
  // Its usage beside the quota: nothing stored yet.
  await page.getByRole('row', { name: /robin/ }).getByText('0 files · 0 B').waitFor();
  // The short-link limit is kept beside it (issue 34): the editor shows it again.
  await page.getByRole('button', { name: 'Edit robin' }).click();
  expect(await dialog().getByRole('textbox', { name: 'Maximum short links' }).inputValue()).toBe('3');
  await dialog().getByRole('button', { name: 'Cancel' }).click();
  await dialog().waitFor({ state: 'detached' });

  // The USER: no users page in the menu, and its address shows the 403 as what it is.
  await signOut(dashboard, 'sam');
  await signIn(dashboard, 'robin', 'robin password');
  expect(await nav('Files').count()).toBe(1);
  expect(await nav('Users').count()).toBe(0);
  await page.goto(`${runner.url}/users`);
  await page.getByText('Administrators only').waitFor();
  await a11y();
  await signOut(dashboard, 'robin');

  await signIn(dashboard, 'sam', 'sam password');
  await nav('Users').click();
  // Dark theme at phone width passes axe too (contrast is what differs; the columns shrink).
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.setViewportSize({ width: 390, height: 844 });
  await a11y();
  await page.getByRole('button', { name: 'Delete robin' }).click();
  await dialog().getByRole('checkbox', { name: 'Also delete the stored file contents' }).click();
  await dialog().getByRole('button', { name: 'Delete user' }).click();
  await page.getByText('robin deleted').waitFor();
  await page.getByRole('row', { name: /robin/ }).waitFor({ state: 'detached' });
  const refused = await fetch(`${runner.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'robin', password: 'robin password' }),
  });
  expect(refused.status).toBe(401);
}, 300_000);
