import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from '../support/browser.ts';
import { seriousA11yViolations } from '../support/dashboard.ts';
import { type Runner, startRunner, stopRunner } from '../support/runner.ts';

/**
 * The dashboard's signed-out pages in Chromium against `npm start` (DynamoDB Local, s3rver): first
 * run, login errors and throttling, logout, and an expired session returning to where it was.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'file-service-browser-login-'));
let runner: Runner;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  [runner, browser] = await Promise.all([
    startRunner(dataDir, { CREATE_ADMIN: 'false', LOGIN_LIMIT_PER_USERNAME: '3' }),
    launchChromium(),
  ]);
  context = await browser.newContext();
  page = await context.newPage();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  if (runner) await stopRunner(runner);
  rmSync(dataDir, { recursive: true, force: true });
});

const signIn = async (username: string, password: string) => {
  await page.getByLabel('Username').fill(username);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
};

test('the runner serves the dashboard beside the API', async () => {
  const index = await fetch(`${runner.url}/`);
  expect(index.status).toBe(200);
  expect(index.headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(index.headers.get('content-security-policy')).toContain("script-src 'self'");
  const html = await index.text();
  expect(html).toContain('<div id="root">');
  // The app's own routes fall back to index.html; unknown API paths keep the JSON 404.
  expect(await (await fetch(`${runner.url}/files/deep/link?x=1`)).text()).toBe(html);
  const api404 = await fetch(`${runner.url}/api/nothing-here`);
  expect(api404.status).toBe(404);
  expect(await api404.json()).toEqual({ error: expect.any(String), statusCode: 404 });
  const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1] as string;
  const asset = await fetch(`${runner.url}${script}`);
  expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  expect(asset.headers.get('cache-control')).toContain('immutable');
  expect((await fetch(`${runner.url}/assets/missing.js`, { method: 'POST' })).status).toBe(404);
});

test('first run → setup, logout, login errors, 429, expired session returns to where it was', async () => {
  await page.goto(`${runner.url}/`);
  await page.getByRole('heading', { name: 'Welcome' }).waitFor();
  expect(page.url()).toBe(`${runner.url}/setup`);
  expect(await seriousA11yViolations(page)).toEqual([]);
  await page.getByLabel('Username').fill('owner');
  await page.getByLabel(/^Password/).fill('first password');
  await page.getByLabel('Confirm password').fill('first passwort');
  await page.getByText('The passwords differ').waitFor();
  await page.getByLabel('Confirm password').fill('first password');
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('heading', { name: /^Welcome back/ }).waitFor();
  expect(page.url()).toBe(`${runner.url}/home`);

  await page.getByRole('button', { name: 'User menu for owner' }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  expect(await seriousA11yViolations(page)).toEqual([]);
  // The first-run page is gone for good.
  await page.goto(`${runner.url}/setup`);
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();

  await signIn('owner', 'wrong password');
  await page.getByRole('alert').getByText('invalid username or password').waitFor();

  // Three failures are allowed per window; the next is refused (a window can end mid-loop, so
  // keep failing until the refusal comes).
  let status = 0;
  for (let attempt = 0; attempt < 8 && status !== 429; attempt += 1) {
    const answered = page.waitForResponse((response) => response.url().endsWith('/api/auth/login'));
    await signIn('nobody', 'wrong password');
    status = (await answered).status();
  }
  expect(status).toBe(429);
  await page
    .getByRole('alert')
    .getByText(/Too many attempts\. Try again in \d+ (seconds|minutes) \(at .+\)\./)
    .waitFor();

  await signIn('owner', 'first password');
  await page.getByRole('heading', { name: /^Welcome back/ }).waitFor();

  // The session ends behind the page's back: the next API call brings login, then the way back.
  await page.goto(`${runner.url}/settings?tab=view`);
  await page.getByRole('heading', { name: 'Settings' }).waitFor();
  await context.clearCookies();
  await page.reload();
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  expect(new URL(page.url()).searchParams.get('next')).toBe('/settings?tab=view');
  await signIn('owner', 'first password');
  await page.getByRole('heading', { name: 'Settings' }).waitFor();
  expect(page.url()).toBe(`${runner.url}/settings?tab=view`);
}, 180_000);
