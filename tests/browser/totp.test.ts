import { signOut } from '../support/dashboard.ts';
import { codeAt, stepNow } from '../support/totp-codes.ts';
import { ADMIN, dashboardFixture } from './fixture.ts';

/**
 * Two-factor sign-in in Chromium against `npm start`: turning TOTP on in the settings (QR code, key,
 * a code from the "app", the recovery codes shown once and copied), signing in with a code after a
 * wrong one, with a recovery code, and turning it off again. Codes are computed from the key the
 * page shows, for the time step at hand: nothing waits for a code to change.
 */
const ui = dashboardFixture('totp');

const section = () => ui.page.getByRole('region', { name: 'Two-factor authentication' });

/** The sign-in form up to the point where the API answered `{"totp": true}`. */
async function signInUntilCode() {
  await ui.page.goto(`${ui.runner.url}/login`);
  await ui.page.getByLabel('Username').fill(ADMIN.username);
  await ui.page.getByLabel(/^Password/).fill(ADMIN.password);
  await ui.page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await ui.page.getByRole('textbox', { name: 'Authentication code' }).waitFor();
}

test('turn TOTP on, sign in with a code and with a recovery code, turn it off', async () => {
  await ui.signIn();
  await ui.page.goto(`${ui.runner.url}/settings`);
  await section().getByText('Off', { exact: true }).waitFor();
  // Cancel leaves the setup, and TOTP off.
  await section().getByRole('button', { name: 'Set up an authenticator app' }).click();
  await section().getByRole('img', { name: 'QR code to scan with your authenticator app' }).waitFor();
  await section().getByRole('button', { name: 'Cancel' }).click();
  await section().getByRole('img', { name: 'QR code to scan with your authenticator app' }).waitFor({
    state: 'detached',
  });
  await section().getByText('Off', { exact: true }).waitFor();
  await section().getByRole('button', { name: 'Set up an authenticator app' }).click();
  await section().getByRole('img', { name: 'QR code to scan with your authenticator app' }).waitFor();
  await ui.a11y();
  const secret = ((await section().getByLabel('Secret key').textContent()) ?? '').replaceAll(' ', '');
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);

  // A wrong code first: the API's message, still off.
  await section()
    .getByRole('textbox', { name: 'Code from the app' })
    .fill(codeAt(secret, stepNow() + 9));
  await section().getByRole('button', { name: 'Turn on' }).click();
  await section().getByRole('alert').getByText('invalid code').waitFor();
  const enrolledAt = stepNow();
  await section().getByRole('textbox', { name: 'Code from the app' }).fill(codeAt(secret, enrolledAt));
  await section().getByRole('button', { name: 'Turn on' }).click();

  // The recovery codes, once: ten of them, copied as lines.
  const list = section().getByRole('list', { name: 'Recovery codes' });
  await list.waitFor();
  const codes = (await list.getByRole('listitem').allTextContents()).map((code) => code.trim());
  expect(codes).toHaveLength(10);
  await ui.a11y();
  await section().getByRole('button', { name: 'Copy codes' }).click();
  expect(await ui.page.evaluate(() => navigator.clipboard.readText())).toBe(`${codes.join('\n')}\n`);
  await section().getByRole('button', { name: 'I have saved them' }).click();
  await section().getByText('On', { exact: true }).waitFor();
  await expect(list.count()).resolves.toBe(0);

  // Signing in now asks for the code: a wrong one is refused, the next one signs in.
  await signOut(ui, ADMIN.username);
  await signInUntilCode();
  await ui.a11y();
  await ui.page.getByRole('textbox', { name: 'Authentication code' }).fill('000000');
  await ui.page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await ui.page.getByRole('alert').getByText('invalid code').waitFor();
  const code = codeAt(secret, Math.max(stepNow(), enrolledAt + 1));
  await ui.page.getByRole('textbox', { name: 'Authentication code' }).fill(code);
  await ui.page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await ui.page.getByRole('heading', { name: /^Welcome back/ }).waitFor();

  // A recovery code in place of the code.
  await signOut(ui, ADMIN.username);
  await signInUntilCode();
  await ui.page.getByRole('button', { name: 'Use a recovery code' }).click();
  await ui.page.getByRole('textbox', { name: 'Recovery code' }).fill(codes[0] as string);
  await ui.page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await ui.page.getByRole('heading', { name: /^Welcome back/ }).waitFor();

  // Off again with another recovery code; then the password alone signs in.
  await ui.page.goto(`${ui.runner.url}/settings`);
  await section()
    .getByRole('textbox', { name: 'Code or recovery code' })
    .fill(codes[1] as string);
  await section().getByRole('button', { name: 'Turn off' }).click();
  await section().getByRole('button', { name: 'Set up an authenticator app' }).waitFor();
  await signOut(ui, ADMIN.username);
  await ui.signIn();
}, 180_000);

test('an administrator turns a locked-out user’s TOTP off in the user editor', async () => {
  const api = (path: string, init: { method?: string; json?: unknown; cookie?: string } = {}) =>
    fetch(`${ui.runner.url}${path}`, {
      method: init.method ?? 'GET',
      headers: {
        'content-type': 'application/json',
        origin: ui.runner.url,
        ...(init.cookie ? { cookie: init.cookie } : {}),
      },
      ...(init.json === undefined ? {} : { body: JSON.stringify(init.json) }),
    });
  // A member who turned TOTP on (through the API, as another device would).
  const member = { username: 'locked-out', password: 'member password' };
  const created = await ui.page.request.post(`${ui.runner.url}/api/users`, {
    data: member,
    headers: { origin: ui.runner.url },
  });
  expect(created.status()).toBe(200);
  const signedIn = await api('/api/auth/login', { method: 'POST', json: member });
  const cookie = (signedIn.headers.get('set-cookie') ?? '').split(';')[0] as string;
  const { secret } = await (await api('/api/user/mfa/totp', { cookie })).json();
  const enrolled = await api('/api/user/mfa/totp', {
    method: 'POST',
    cookie,
    json: { secret, code: codeAt(secret, stepNow()) },
  });
  expect(enrolled.status).toBe(200);
  expect(await (await api('/api/auth/login', { method: 'POST', json: member })).json()).toEqual({
    totp: true,
  });

  await ui.page.goto(`${ui.runner.url}/users`);
  await ui.page.getByRole('button', { name: `Edit ${member.username}` }).click();
  const turnOff = ui.page
    .getByRole('dialog')
    .getByRole('checkbox', { name: 'Turn off two-factor authentication' });
  await turnOff.check();
  await ui.a11y();
  await ui.page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
  await ui.page.getByRole('dialog').waitFor({ state: 'detached' });
  const again = await api('/api/auth/login', { method: 'POST', json: member });
  expect((await again.json()).user.username).toBe(member.username);
}, 120_000);
