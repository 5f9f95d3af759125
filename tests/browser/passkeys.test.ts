import type { CDPSession } from 'playwright-core';
import { signOut } from '../support/dashboard.ts';
import { ADMIN, dashboardFixture } from './fixture.ts';

/**
 * Passkeys through the dashboard in Chromium against `npm start`, with a virtual authenticator (the
 * DevTools protocol's WebAuthn domain: a platform authenticator with resident keys that verifies its
 * user): add a passkey in settings, rename it, sign out, sign in with it, delete it. The page is
 * opened at http://localhost:<port>: an IP address cannot be a relying party.
 */
const ui = dashboardFixture('passkeys');
let cdp: CDPSession;
let authenticatorId: string;

beforeAll(async () => {
  ui.runner = { ...ui.runner, url: ui.runner.url.replace('127.0.0.1', 'localhost') };
  cdp = await ui.context.newCDPSession(ui.page);
  await cdp.send('WebAuthn.enable');
  ({ authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
    },
  }));
}, 120_000);

test('add a passkey, rename it, sign out, sign in with it, delete it', async () => {
  const { page, runner } = ui;
  expect(new URL(runner.url).hostname).toBe('localhost');
  await ui.signIn();
  await page.goto(`${runner.url}/settings`);
  const passkeys = page.getByRole('region', { name: 'Passkeys' });
  await passkeys.getByText('No passkeys yet.').waitFor();
  await passkeys.getByRole('textbox', { name: "New passkey's name" }).fill('Work laptop');
  await passkeys.getByRole('button', { name: 'Add a passkey' }).click();
  await passkeys.getByText('Work laptop').waitFor();
  await passkeys.getByText('not used yet').waitFor();
  await ui.a11y();

  await passkeys.getByRole('button', { name: 'Rename Work laptop' }).click();
  await passkeys.getByRole('textbox', { name: 'Passkey name' }).fill('Home laptop');
  await passkeys.getByRole('button', { name: 'Save' }).click();
  await passkeys.getByRole('button', { name: 'Rename Home laptop' }).waitFor();

  await signOut(ui, ADMIN.username);
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await page.getByRole('heading', { name: /^Welcome back/ }).waitFor();
  const me = await page.evaluate(() => fetch('/api/user').then((answer) => answer.json()));
  expect(me.user.username).toBe(ADMIN.username);
  expect(me.user.passkeys).toEqual([
    {
      id: expect.any(String),
      name: 'Home laptop',
      createdAt: expect.any(String),
      lastUsed: expect.any(String),
    },
  ]);

  await page.goto(`${runner.url}/settings`);
  // Deleting asks first: Cancel keeps it, the red button deletes it.
  await passkeys.getByRole('button', { name: 'Delete Home laptop' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('dialog').waitFor({ state: 'detached' });
  await passkeys.getByText('Home laptop').waitFor();
  await passkeys.getByRole('button', { name: 'Delete Home laptop' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete passkey' }).click();
  await passkeys.getByText('No passkeys yet.').waitFor();
  const credentials = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  // The authenticator still holds it: the service no longer knows it, so it signs nobody in.
  expect(credentials.credentials).toHaveLength(1);
  await signOut(ui, ADMIN.username);
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await page.getByRole('alert').filter({ hasText: 'passkey sign-in failed' }).waitFor();
}, 300_000);
