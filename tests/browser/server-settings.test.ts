import { signOut } from '../support/dashboard.ts';
import { ADMIN, dashboardFixture } from './fixture.ts';

/**
 * Server settings, invites and registration in Chromium against `npm start` (issue 38): the
 * SUPERADMIN saves settings (a bad value refused with the API's message, nothing saved), the site
 * title shows in the header and the tab, an invite's link registers an account, and the sign-in
 * page offers registration once it is open. Screenshots (light, dark, phone) into
 * SETTINGS_SCREENSHOTS when set.
 */
const ui = dashboardFixture('settings', { screenshots: 'SETTINGS_SCREENSHOTS' });
const PASSWORD = 'a new long password';

/** Fills the registration form (an invite's or the sign-in page's) and waits for the files page. */
async function createAccount(username: string) {
  await ui.page.getByLabel('Username').fill(username);
  await ui.page.getByLabel(/^Password/).fill(PASSWORD);
  await ui.page.getByLabel(/^Confirm password/).fill(PASSWORD);
  await ui.page.getByRole('button', { name: 'Create account' }).click();
  await ui.page.getByRole('heading', { name: 'Files', exact: true }).waitFor();
}

test('the SUPERADMIN changes the server settings; a refused value saves nothing', async () => {
  await ui.signIn();
  await ui.page.getByRole('navigation').getByRole('link', { name: 'Server settings' }).click();
  await ui.page.getByRole('heading', { name: 'Server settings' }).waitFor();
  await ui.page.getByRole('textbox', { name: 'Site title' }).fill('Team Files');
  await ui.page.getByRole('textbox', { name: 'Sign-in page text' }).fill('Ask Sam for an invite.');
  await ui.page.getByRole('switch', { name: 'Anyone may create an account' }).check({ force: true });
  await ui.page.getByRole('textbox', { name: 'Largest file' }).fill('huge');
  await ui.page.getByRole('button', { name: 'Save' }).click();
  await ui.page.getByRole('alert').getByText('filesMaxFileSize: must be a positive byte size').waitFor();
  await ui.shot('server-settings-refused-light');
  // Refused as a whole: the title is not the new one yet.
  expect(await ui.page.getByRole('banner').textContent()).not.toContain('Team Files');
  await ui.page.getByRole('textbox', { name: 'Largest file' }).fill('100mb');
  await ui.page.getByRole('button', { name: 'Save' }).click();
  await ui.page.getByText('Server settings saved').waitFor();
  await ui.page.getByRole('banner').getByText('Team Files').waitFor();
  await ui.page.waitForFunction(() => document.title === 'Server settings · Team Files');
  await ui.a11y();
  await ui.shot('server-settings-light');
  await ui.page.emulateMedia({ colorScheme: 'dark' });
  await ui.shot('server-settings-dark');
  await ui.page.setViewportSize({ width: 390, height: 844 });
  await ui.shot('server-settings-dark-phone');
  await ui.page.emulateMedia({ colorScheme: 'light' });
  await ui.page.setViewportSize({ width: 1280, height: 800 });
}, 300_000);

let code = '';

test('an administrator makes an invite, whose link registers an account', async () => {
  await ui.page.getByRole('navigation').getByRole('link', { name: 'Invites' }).click();
  await ui.page.getByRole('heading', { name: 'Invites' }).waitFor();
  await ui.page.getByText('No invites yet.').waitFor();
  await ui.page.getByRole('button', { name: 'Create invite' }).click();
  const row = ui.page.getByRole('table', { name: 'Invites' }).getByRole('row').nth(1);
  await row.getByText('0 / 1').waitFor();
  code = ((await row.getByRole('cell').first().textContent()) ?? '').trim();
  expect(code).toMatch(/^[A-Za-z0-9]{8}$/);
  await ui.a11y();
  await ui.shot('invites-light');
  await ui.page.emulateMedia({ colorScheme: 'dark' });
  await ui.page.setViewportSize({ width: 390, height: 844 });
  await ui.shot('invites-dark-phone');
  await ui.page.emulateMedia({ colorScheme: 'light' });
  await ui.page.setViewportSize({ width: 1280, height: 800 });

  await signOut(ui, ADMIN.username);
  await ui.page.goto(`${ui.runner.url}/invite/${code}`);
  await ui.page.getByRole('heading', { name: 'You are invited' }).waitFor();
  await ui.page.getByText('Create your account on Team Files.').waitFor();
  await ui.a11y();
  await ui.shot('invite-light');
  await createAccount('invited-friend');
  // A USER: no administration in the navigation.
  expect(await ui.page.getByRole('navigation').getByRole('link', { name: 'Invites' }).count()).toBe(0);
  await signOut(ui, 'invited-friend');
}, 300_000);

test('the sign-in page shows its text and, registration open, a registration form', async () => {
  await ui.page.goto(`${ui.runner.url}/login`);
  await ui.page.getByTestId('login-text').getByText('Ask Sam for an invite.').waitFor();
  await ui.page.waitForFunction(() => document.title === 'Sign in · Team Files');
  await ui.shot('login-open-light');
  await ui.page.getByRole('button', { name: 'Create an account' }).click();
  await ui.page.getByRole('heading', { name: 'Create an account' }).waitFor();
  await ui.a11y();
  await ui.page.emulateMedia({ colorScheme: 'dark' });
  await ui.page.setViewportSize({ width: 390, height: 844 });
  await ui.shot('register-dark-phone');
  await createAccount('self-made');
  // The invite was used once: a second registration with it is refused with the API's message.
  await signOut(ui, 'self-made');
  await ui.page.goto(`${ui.runner.url}/invite/${code}`);
  await ui.page.getByLabel('Username').fill('second-friend');
  await ui.page.getByLabel(/^Password/).fill(PASSWORD);
  await ui.page.getByLabel(/^Confirm password/).fill(PASSWORD);
  await ui.page.getByRole('button', { name: 'Create account' }).click();
  await ui.page.getByText('this invite is not valid').waitFor();
}, 300_000);
