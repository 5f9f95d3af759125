import { SETUP_CODE_REFUSED } from '#shared/users/setup-code';
import { dashboardFixture } from './fixture.ts';

/**
 * The first-run page of a deployment with a setup code (in AWS always; here `SETUP_CODE`): it asks
 * for the code, a wrong one is refused with its reason, the right one creates the first account.
 * Without a code (plain `npm start`) the page has no such field: tests/browser/login.test.ts.
 */
const CODE = 'Hx4Tq9ZpL2wMv7NcR3bKd8Yf';
// The first-run page: no administrator is created.
const ui = dashboardFixture('setup-code', { env: () => ({ CREATE_ADMIN: 'false', SETUP_CODE: CODE }) });

test('the first-run page asks for the setup code and creates the account only with it', async () => {
  await ui.page.goto(`${ui.runner.url}/`);
  await ui.page.getByRole('heading', { name: 'Welcome' }).waitFor();
  const code = ui.page.getByLabel('Setup code');
  await code.waitFor();
  await ui.a11y();
  await ui.page.getByLabel('Username').fill('owner');
  await ui.page.getByLabel(/^Password/).fill('first password');
  await ui.page.getByLabel('Confirm password').fill('first password');
  await code.fill('not-the-code');
  await ui.page.getByRole('button', { name: 'Create account' }).click();
  await ui.page.getByRole('alert').getByText(SETUP_CODE_REFUSED).waitFor();
  expect((await (await fetch(`${ui.runner.url}/api/setup`)).json()) as unknown).toEqual({
    firstSetup: true,
    codeRequired: true,
  });

  await code.fill(CODE);
  await ui.page.getByRole('button', { name: 'Create account' }).click();
  await ui.page.getByRole('heading', { name: /^Welcome back/ }).waitFor();
  expect(ui.page.url()).toBe(`${ui.runner.url}/home`);
}, 120_000);
