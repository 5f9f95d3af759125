import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { SETUP_CODE_REFUSED } from '#shared/users/setup-code';
import { launchChromium } from '../support/browser.ts';
import { seriousA11yViolations } from '../support/dashboard.ts';
import { type Runner, startRunner, stopRunner } from '../support/runner.ts';

/**
 * The first-run page of a deployment with a setup code (in AWS always; here `SETUP_CODE`): it asks
 * for the code, a wrong one is refused with its reason, the right one creates the first account.
 * Without a code (plain `npm start`) the page has no such field: tests/browser/login.test.ts.
 */
const CODE = 'Hx4Tq9ZpL2wMv7NcR3bKd8Yf';
const dataDir = mkdtempSync(join(tmpdir(), 'file-service-browser-setup-code-'));
let runner: Runner;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  [runner, browser] = await Promise.all([
    startRunner(dataDir, { CREATE_ADMIN: 'false', SETUP_CODE: CODE }),
    launchChromium(),
  ]);
  page = await (await browser.newContext()).newPage();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  if (runner) await stopRunner(runner);
  rmSync(dataDir, { recursive: true, force: true });
});

test('the first-run page asks for the setup code and creates the account only with it', async () => {
  await page.goto(`${runner.url}/`);
  await page.getByRole('heading', { name: 'Welcome' }).waitFor();
  const code = page.getByLabel('Setup code');
  await code.waitFor();
  expect(await seriousA11yViolations(page)).toEqual([]);
  await page.getByLabel('Username').fill('owner');
  await page.getByLabel(/^Password/).fill('first password');
  await page.getByLabel('Confirm password').fill('first password');
  await code.fill('not-the-code');
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('alert').getByText(SETUP_CODE_REFUSED).waitFor();
  expect((await (await fetch(`${runner.url}/api/setup`)).json()) as unknown).toEqual({
    firstSetup: true,
    codeRequired: true,
  });

  await code.fill(CODE);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('heading', { name: /^Welcome back/ }).waitFor();
  expect(page.url()).toBe(`${runner.url}/home`);
}, 120_000);
