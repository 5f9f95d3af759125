import { readFileSync } from 'node:fs';
import { signOut } from '../support/dashboard.ts';
import { PNG_1X1 } from '../support/pixels.ts';
import { ADMIN, dashboardFixture } from './fixture.ts';

/**
 * The account side of the dashboard in Chromium against `npm start` (DynamoDB Local, s3rver):
 * settings (username, avatar, link settings that survive a reload, password), the token from the
 * user menu used with fetch and then reset, and users (an ADMIN creates, edits and deletes a USER,
 * who sees no users page and gets the 403 shown as such). axe checks each page.
 */
const ui = dashboardFixture('account');
/** The SUPERADMIN's token, once the token test has reset it. */
let bossToken = '';

const nav = (name: string) => ui.page.getByRole('navigation').getByRole('link', { name, exact: true });
const dialog = () => ui.page.getByRole('dialog');
const userStatus = (token: string) =>
  fetch(`${ui.runner.url}/api/user`, { headers: { authorization: token } }).then((answer) => answer.status);

/** A second browser (another device) signed in as this user: its session cookie. */
async function otherDevice(username: string, password: string) {
  const other = await ui.browser.newContext();
  const answer = await other.request.post(`${ui.runner.url}/api/auth/login`, {
    data: { username, password },
    headers: { origin: ui.runner.url },
  });
  expect(answer.status()).toBe(200);
  return other;
}

test('settings: username, avatar, link settings after a reload, password', async () => {
  await ui.signIn();
  await ui.page.getByRole('button', { name: `User menu for ${ADMIN.username}` }).click();
  await ui.page.getByRole('menuitem', { name: 'Settings' }).click();
  await ui.page.getByRole('heading', { name: 'Settings' }).waitFor();
  await ui.a11y();

  await ui.page.getByRole('textbox', { name: 'Username' }).fill('boss');
  await ui.page.getByRole('button', { name: 'Save username' }).click();
  await ui.page.getByRole('button', { name: 'User menu for boss' }).waitFor();

  // The avatar: picked, previewed before saving, saved (it survives a reload), removed.
  await ui.page
    .locator('input[type=file]')
    .setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: PNG_1X1 });
  await ui.page.getByRole('img', { name: 'Your avatar' }).waitFor();
  await ui.page.getByRole('button', { name: 'Save avatar' }).click();
  await ui.page.getByRole('button', { name: 'Remove avatar' }).waitFor();
  await ui.page.reload();
  expect(await ui.page.getByRole('img', { name: 'Your avatar' }).getAttribute('src')).toBe(
    `data:image/png;base64,${PNG_1X1.toString('base64')}`,
  );
  await ui.page.getByRole('button', { name: 'Remove avatar' }).click();
  await dialog().getByText('Remove your avatar?').waitFor();
  await dialog().getByRole('button', { name: 'Remove avatar' }).click();
  await ui.page.getByRole('button', { name: 'Choose image' }).waitFor();
  await ui.page.getByRole('img', { name: 'Your avatar' }).waitFor({ state: 'detached' });

  // Link settings, with the embed previewed live; they are what the page shows after a reload.
  await ui.page.getByRole('tab', { name: 'Links and embeds' }).click();
  await ui.page.getByRole('switch', { name: 'Add an embed to links' }).click();
  await ui.page.getByLabel('Title', { exact: true }).fill('Shared by {user.username}');
  await ui.page.getByLabel('Preview').getByText('Shared by boss').waitFor();
  await ui.a11y();
  await ui.page.getByRole('button', { name: 'Save link settings' }).click();
  await ui.page.getByText('Link and embed settings saved').waitFor();
  await ui.page.reload();
  await ui.page.getByLabel('Preview').getByText('Shared by boss').waitFor();
  expect(await ui.page.getByLabel('Title', { exact: true }).inputValue()).toBe('Shared by {user.username}');
  expect(await ui.page.getByRole('switch', { name: 'Add an embed to links' }).isChecked()).toBe(true);

  // The password: confirmed, the current one proven; other sessions end, this one stays.
  const laptop = await otherDevice('boss', ADMIN.password);
  await ui.page.getByRole('tab', { name: 'Account' }).click();
  await ui.page.getByLabel(/^Current password/).fill('not my password');
  await ui.page.getByLabel(/^New password/).fill('a new password');
  await ui.page.getByLabel(/^Confirm new password/).fill('a new passwort');
  await ui.page.getByText('The passwords differ').waitFor();
  await ui.page.getByLabel(/^Confirm new password/).fill('a new password');
  await ui.page.getByRole('button', { name: 'Change password' }).click();
  await ui.page.getByRole('alert').getByText('currentPassword is not the current password').waitFor();
  await ui.page.getByLabel(/^Current password/).fill(ADMIN.password);
  await ui.page.getByRole('button', { name: 'Change password' }).click();
  await ui.page.getByText('Password changed; your other sessions are signed out').waitFor();
  expect(await ui.page.getByLabel(/^Current password/).inputValue()).toBe('');
  expect((await laptop.request.get(`${ui.runner.url}/api/user`)).status()).toBe(401);
  await laptop.close();
  await ui.page.reload();
  await ui.page.getByRole('button', { name: 'User menu for boss' }).waitFor();
  await signOut(ui, 'boss');
  await ui.page.getByLabel('Username').fill('boss');
  await ui.page.getByLabel(/^Password/).fill(ADMIN.password);
  await ui.page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await ui.page.getByRole('alert').getByText('invalid username or password').waitFor();
  await ui.signIn('boss', 'a new password');
}, 300_000);

test('the token from the user menu works with fetch; after a reset it is refused', async () => {
  // "Copy token" copies at once and says so; no dialog in between.
  await ui.page.evaluate(() => navigator.clipboard.writeText('nothing yet'));
  await ui.page.getByRole('button', { name: 'User menu for boss' }).click();
  await ui.page.getByRole('menuitem', { name: 'Copy token' }).click();
  await ui.page.getByText('API token copied').waitFor();
  expect(await dialog().count()).toBe(0);
  await ui.a11y();
  const copied = await ui.page.evaluate(() => navigator.clipboard.readText());
  expect(copied).not.toBe('nothing yet');
  const me = await fetch(`${ui.runner.url}/api/user`, { headers: { authorization: copied } });
  expect(me.status).toBe(200);
  expect(((await me.json()) as { user: { username: string } }).user.username).toBe('boss');

  // The ShareX config carries this service's address and the token.
  await ui.page.goto(`${ui.runner.url}/settings?tab=uploaders`);
  await ui.page.getByRole('button', { name: 'ShareX (.sxcu)' }).waitFor();
  await ui.a11y();
  const [sxcu] = await Promise.all([
    ui.page.waitForEvent('download'),
    ui.page.getByRole('button', { name: 'ShareX (.sxcu)' }).click(),
  ]);
  expect(JSON.parse(readFileSync((await sxcu.path()) as string, 'utf8'))).toMatchObject({
    RequestURL: `${ui.runner.url}/api/upload`,
    Headers: { authorization: copied },
  });
  // ShareX's one request has a limit, and the page says so; the script takes larger files its way.
  await ui.page.getByText(/ShareX sends each file in one request, which takes at most 4\sMiB/).waitFor();
  const [script] = await Promise.all([
    ui.page.waitForEvent('download'),
    ui.page.getByRole('button', { name: 'Flameshot / curl script' }).click(),
  ]);
  const shell = readFileSync((await script.path()) as string, 'utf8');
  expect(shell).toContain(`TOKEN='${copied}'`);
  expect(shell).toContain(`"$SERVICE/api/user/files/uploads"`);

  await ui.page.getByRole('button', { name: 'Reset token' }).click();
  await dialog().getByRole('button', { name: 'Reset token' }).click();
  await ui.page.getByText('A new token is in place').waitFor();
  expect(await userStatus(copied)).toBe(401);
  await ui.page.getByRole('button', { name: 'Copy token' }).click();
  await ui.page.getByRole('button', { name: 'Copied' }).waitFor();
  const renewed = await ui.page.evaluate(() => navigator.clipboard.readText());
  expect(renewed).not.toBe(copied);
  expect(await userStatus(renewed)).toBe(200);
  bossToken = renewed;
}, 120_000);

test('an ADMIN creates, edits and deletes a USER, who sees no users page', async () => {
  // The SUPERADMIN's ADMIN: its token alone may not make one (a session must), so the page's own
  // session asks; the UI's create form is driven below.
  const byToken = await fetch(`${ui.runner.url}/api/users`, {
    method: 'POST',
    headers: { authorization: bossToken, 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'sam', password: 'sam password', role: 'ADMIN' }),
  });
  expect(byToken.status).toBe(403);
  const bySession = await ui.page.evaluate(async () => {
    const answer = await fetch('/api/users', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'sam', password: 'sam password', role: 'ADMIN' }),
    });
    return answer.status;
  });
  expect(bySession).toBe(200);
  await signOut(ui, 'boss');
  await ui.signIn('sam', 'sam password');
  await nav('Users').click();
  await ui.page.getByRole('heading', { name: 'Users' }).waitFor();
  await ui.page.getByRole('button', { name: 'Create user' }).click();
  await dialog().getByLabel('Username').fill('member');
  await dialog()
    .getByLabel(/^Password/)
    .fill('member password');
  await ui.a11y();
  await dialog().getByRole('button', { name: 'Create user' }).click();
  await ui.page.getByRole('row', { name: /member/ }).waitFor();
  await ui.a11y();

  // Edit what an ADMIN may: name, password, quota; the only role it can give is USER.
  await ui.page.getByRole('button', { name: 'Edit member' }).click();
  await dialog().getByLabel('Username').fill('robin');
  await dialog()
    .getByLabel(/^New password/)
    .fill('robin password');
  await dialog().getByRole('combobox', { name: 'Role' }).click();
  expect(await ui.page.getByRole('option').allTextContents()).toEqual(['USER']);
  await ui.page.keyboard.press('Escape');
  await dialog().getByRole('combobox', { name: 'Quota' }).click();
  await ui.page.getByRole('option', { name: 'Limit by number of files' }).click();
  await dialog().getByLabel('Maximum files').fill('5');
  await dialog().getByRole('textbox', { name: 'Maximum short links' }).fill('3');
  await dialog().getByRole('button', { name: 'Save' }).click();
  await ui.page.getByRole('row', { name: /robin/ }).getByText('5 files', { exact: true }).waitFor();
  // Its usage beside the quota: nothing stored yet.
  await ui.page.getByRole('row', { name: /robin/ }).getByText('0 files · 0 B').waitFor();
  // The short-link limit is kept beside it (issue 34): the editor shows it again.
  await ui.page.getByRole('button', { name: 'Edit robin' }).click();
  expect(await dialog().getByRole('textbox', { name: 'Maximum short links' }).inputValue()).toBe('3');
  await dialog().getByRole('button', { name: 'Cancel' }).click();
  await dialog().waitFor({ state: 'detached' });

  // The USER: no users page in the menu, and its address shows the 403 as what it is.
  await signOut(ui, 'sam');
  await ui.signIn('robin', 'robin password');
  expect(await nav('Files').count()).toBe(1);
  expect(await nav('Users').count()).toBe(0);
  await ui.page.goto(`${ui.runner.url}/users`);
  await ui.page.getByText('Administrators only').waitFor();
  await ui.a11y();
  await signOut(ui, 'robin');

  await ui.signIn('sam', 'sam password');
  await nav('Users').click();
  // Dark theme at phone width passes axe too (contrast is what differs; the columns shrink).
  await ui.page.emulateMedia({ colorScheme: 'dark' });
  await ui.page.setViewportSize({ width: 390, height: 844 });
  await ui.a11y();
  await ui.page.getByRole('button', { name: 'Delete robin' }).click();
  await dialog().getByRole('checkbox', { name: 'Also delete the stored file contents' }).click();
  await dialog().getByRole('button', { name: 'Delete user' }).click();
  await ui.page.getByText('robin deleted').waitFor();
  await ui.page.getByRole('row', { name: /robin/ }).waitFor({ state: 'detached' });
  const refused = await fetch(`${ui.runner.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'robin', password: 'robin password' }),
  });
  expect(refused.status).toBe(401);
}, 300_000);
