import { dashboardFixture } from './fixture.ts';

/**
 * The dashboard's signed-out pages in Chromium against `npm start` (DynamoDB Local, s3rver): first
 * run, login errors and throttling, logout, and an expired session returning to where it was.
 */
// The first-run page: no administrator is created.
const ui = dashboardFixture('login', {
  env: () => ({ CREATE_ADMIN: 'false', LOGIN_LIMIT_PER_USERNAME: '3' }),
});

const signIn = async (username: string, password: string) => {
  await ui.page.getByLabel('Username').fill(username);
  await ui.page.getByLabel(/^Password/).fill(password);
  await ui.page.getByRole('button', { name: 'Sign in', exact: true }).click();
};

test('the runner serves the dashboard beside the API', async () => {
  const index = await fetch(`${ui.runner.url}/`);
  expect(index.status).toBe(200);
  expect(index.headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(index.headers.get('content-security-policy')).toContain("script-src 'self'");
  const html = await index.text();
  expect(html).toContain('<div id="root">');
  // The app's own routes fall back to index.html; unknown API paths keep the JSON 404.
  expect(await (await fetch(`${ui.runner.url}/files/deep/link?x=1`)).text()).toBe(html);
  const api404 = await fetch(`${ui.runner.url}/api/nothing-here`);
  expect(api404.status).toBe(404);
  expect(await api404.json()).toEqual({ error: expect.any(String), statusCode: 404 });
  const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1] as string;
  const asset = await fetch(`${ui.runner.url}${script}`);
  expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  expect(asset.headers.get('cache-control')).toContain('immutable');
  expect((await fetch(`${ui.runner.url}/assets/missing.js`, { method: 'POST' })).status).toBe(404);
});

test('first run → setup, logout, login errors, 429, expired session returns to where it was', async () => {
  await ui.page.goto(`${ui.runner.url}/`);
  await ui.page.getByRole('heading', { name: 'Welcome' }).waitFor();
  expect(ui.page.url()).toBe(`${ui.runner.url}/setup`);
  await ui.a11y();
  await ui.page.getByLabel('Username').fill('owner');
  await ui.page.getByLabel(/^Password/).fill('first password');
  await ui.page.getByLabel('Confirm password').fill('first passwort');
  await ui.page.getByText('The passwords differ').waitFor();
  await ui.page.getByLabel('Confirm password').fill('first password');
  await ui.page.getByRole('button', { name: 'Create account' }).click();
  await ui.page.getByRole('heading', { name: /^Welcome back/ }).waitFor();
  expect(ui.page.url()).toBe(`${ui.runner.url}/home`);

  await ui.page.getByRole('button', { name: 'User menu for owner' }).click();
  await ui.page.getByRole('menuitem', { name: 'Log out' }).click();
  await ui.page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await ui.a11y();
  // The first-run page is gone for good.
  await ui.page.goto(`${ui.runner.url}/setup`);
  await ui.page.getByRole('heading', { name: 'Sign in' }).waitFor();

  await signIn('owner', 'wrong password');
  await ui.page.getByRole('alert').getByText('invalid username or password').waitFor();

  // Three failures are allowed per window; the next is refused (a window can end mid-loop, so
  // keep failing until the refusal comes).
  let status = 0;
  for (let attempt = 0; attempt < 8 && status !== 429; attempt += 1) {
    const answered = ui.page.waitForResponse((response) => response.url().endsWith('/api/auth/login'));
    await signIn('nobody', 'wrong password');
    status = (await answered).status();
  }
  expect(status).toBe(429);
  await ui.page
    .getByRole('alert')
    .getByText(/Too many attempts\. Try again in \d+ (seconds|minutes) \(at .+\)\./)
    .waitFor();

  await signIn('owner', 'first password');
  await ui.page.getByRole('heading', { name: /^Welcome back/ }).waitFor();

  // The session ends behind the page's back: the next API call brings login, then the way back.
  await ui.page.goto(`${ui.runner.url}/settings?tab=view`);
  await ui.page.getByRole('heading', { name: 'Settings' }).waitFor();
  await ui.context.clearCookies();
  await ui.page.reload();
  await ui.page.getByRole('heading', { name: 'Sign in' }).waitFor();
  expect(new URL(ui.page.url()).searchParams.get('next')).toBe('/settings?tab=view');
  await signIn('owner', 'first password');
  await ui.page.getByRole('heading', { name: 'Settings' }).waitFor();
  expect(ui.page.url()).toBe(`${ui.runner.url}/settings?tab=view`);
}, 180_000);
