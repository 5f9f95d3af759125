import { signOut } from '../support/dashboard.ts';
import { type OidcProvider, startOidcProvider } from '../support/oidc.ts';
import { acceptedAtOneStep, codeAt } from '../support/totp-codes.ts';
import { ADMIN, dashboardFixture } from './fixture.ts';

/**
 * Sign-in with a provider in Chromium against `npm start` and a real OIDC provider process: the
 * login page's button, a link from settings (through the provider and back), signing in with it,
 * a refused sign-in's message, and unlinking. axe checks both pages.
 */
let provider: OidcProvider;

// Before the dashboard's runner starts (it is given the provider's address), stopped after it.
beforeAll(async () => {
  provider = await startOidcProvider();
}, 120_000);
afterAll(() => provider.stop());
const ui = dashboardFixture('oauth', { env: () => provider.env(), screenshots: 'OAUTH_SCREENSHOTS' });

async function openSettings() {
  await ui.page.getByRole('button', { name: `User menu for ${ADMIN.username}` }).click();
  await ui.page.getByRole('menuitem', { name: 'Settings' }).click();
  await ui.page.getByRole('region', { name: 'Sign-in providers' }).waitFor();
}

test('the login page offers the configured provider; an account nobody linked is told why it cannot sign in', async () => {
  await provider.signInAs({ sub: 'stranger', username: 'stranger' });
  // The page learns the providers from the public server configuration (issue 33).
  const config = ui.page.waitForResponse(
    (response) => new URL(response.url()).pathname === '/api/server/public',
  );
  await ui.page.goto(`${ui.runner.url}/login`);
  expect((await config).status()).toBe(200);
  const button = ui.page.getByRole('link', { name: 'Sign in with Test ID' });
  await button.waitFor();
  await ui.a11y();
  await ui.shot('login-with-provider');
  // The provider sends the browser back to the start's own path, Zipline's redirect URI.
  const callbacks: string[] = [];
  const onRequest = (request: { url: () => string }) => {
    const url = new URL(request.url());
    if (url.searchParams.has('code')) callbacks.push(url.pathname);
  };
  ui.page.on('request', onRequest);
  await button.click();
  const alert = ui.page.getByRole('alert').filter({ hasText: 'Sign-in failed' });
  await alert.waitFor();
  ui.page.off('request', onRequest);
  expect(callbacks).toEqual(['/api/auth/oauth/oidc']);
  expect(await alert.textContent()).toContain('no account is linked to this Test ID account');
  expect(new URL(ui.page.url()).pathname).toBe('/login');
});

test('link from settings, sign in with the provider, unlink', async () => {
  await provider.signInAs({ sub: 'admin-sub', username: 'admin.at.idp' });
  await ui.signIn();
  await openSettings();
  const section = ui.page.getByRole('region', { name: 'Sign-in providers' });
  expect(await section.getByText('Not linked').count()).toBe(1);
  // A POST from the page (the session's), then the browser goes to the provider and back.
  await section.getByRole('button', { name: 'Link Test ID' }).click();
  // Through the provider and back to settings.
  await section.getByText('Test ID is linked').waitFor();
  expect(new URL(ui.page.url()).searchParams.get('linked')).toBe('oidc');
  await section.getByText(/Linked as admin\.at\.idp since/).waitFor();
  await ui.a11y();
  await ui.shot('settings-providers-linked');

  await signOut(ui, ADMIN.username);
  await ui.page.getByRole('link', { name: 'Sign in with Test ID' }).click();
  await ui.page.getByRole('heading', { name: /^Welcome back/ }).waitFor();
  await ui.page.getByRole('button', { name: `User menu for ${ADMIN.username}` }).waitFor();

  await openSettings();
  // Unlinking asks first: Cancel keeps the link, the dialog's Unlink removes it.
  await section.getByRole('button', { name: 'Unlink Test ID' }).click();
  await ui.page
    .getByRole('dialog', { name: 'Unlink Test ID?' })
    .getByRole('button', { name: 'Cancel' })
    .click();
  await section.getByText(/Linked as admin\.at\.idp since/).waitFor();
  await section.getByRole('button', { name: 'Unlink Test ID' }).click();
  await ui.page
    .getByRole('dialog', { name: 'Unlink Test ID?' })
    .getByRole('button', { name: 'Unlink' })
    .click();
  await section.getByText('Not linked').waitFor();
  const stored = await ui.page.evaluate(
    async () => (await (await fetch('/api/user')).json()).user.oauthProviders,
  );
  expect(stored).toEqual([]);
}, 120_000);

test('with two-factor sign-in on, the provider sign-in asks for the code before signing in', async () => {
  await provider.signInAs({ sub: 'admin-sub-totp', username: 'admin.at.idp' });
  await ui.signIn();
  await openSettings();
  const section = ui.page.getByRole('region', { name: 'Sign-in providers' });
  await section.getByRole('button', { name: 'Link Test ID' }).click();
  await section.getByText('Test ID is linked').waitFor();
  // TOTP on through the API, with the page's session.
  const secret = await ui.page.evaluate(
    async () => (await (await fetch('/api/user/mfa/totp')).json()).secret,
  );
  const enrolled = await acceptedAtOneStep(
    (step) =>
      ui.page.evaluate(
        async (json) =>
          (
            await fetch('/api/user/mfa/totp', {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify(json),
            })
          ).json(),
        { secret, code: codeAt(secret, step - 1) },
      ),
    (answer) => Array.isArray(answer.recoveryCodes),
  );
  const [recoveryCode] = enrolled.recoveryCodes as string[];

  await signOut(ui, ADMIN.username);
  await ui.page.getByRole('link', { name: 'Sign in with Test ID' }).click();
  // Back from the provider without a session: the code prompt.
  await ui.page
    .getByText('The provider signed you in; your account also asks for its second factor.')
    .waitFor();
  expect(new URL(ui.page.url()).searchParams.get('totp')).toBe('oidc');
  await ui.a11y();
  await ui.shot('login-provider-code');
  await ui.page.getByRole('button', { name: 'Use a recovery code' }).click();
  await ui.page.getByLabel('Recovery code').fill(recoveryCode as string);
  await ui.page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await ui.page.getByRole('heading', { name: /^Welcome back/ }).waitFor();
  await ui.page.getByRole('button', { name: `User menu for ${ADMIN.username}` }).waitFor();
}, 120_000);
