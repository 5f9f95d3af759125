import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from './browser.ts';
import { type Runner, startRunner, stopRunner } from './runner.ts';

/** `npm start` with Chromium beside it: one page, in a context that may download and use the clipboard. */
export interface Dashboard {
  dataDir: string;
  runner: Runner;
  browser: Browser;
  context: BrowserContext;
  page: Page;
}

/**
 * Starts the runner over a fresh data directory, with `admin` as the administrator it creates (and
 * `env`, e.g. sign-in providers), and Chromium side by side. The clipboard is granted for the token's copy button.
 */
export async function openDashboard(
  dataDirPrefix: string,
  admin: { username: string; password: string },
  env: Record<string, string> = {},
): Promise<Dashboard> {
  const dataDir = mkdtempSync(join(tmpdir(), dataDirPrefix));
  const [runner, browser] = await Promise.all([
    startRunner(dataDir, { ADMIN_USERNAME: admin.username, ADMIN_PASSWORD: admin.password, ...env }),
    launchChromium(),
  ]);
  const context = await browser.newContext({ acceptDownloads: true });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: runner.url });
  const page = await context.newPage();
  // A loaded machine can take long for a step; the test waits on what the page shows, never on time.
  page.setDefaultTimeout(90_000);
  return { dataDir, runner, browser, context, page };
}

export async function closeDashboard(dashboard: Dashboard | undefined): Promise<void> {
  if (!dashboard) return;
  await dashboard.browser.close();
  await stopRunner(dashboard.runner);
  rmSync(dashboard.dataDir, { recursive: true, force: true });
}

/** Signs in on the login page and waits for the home page it leads to. */
export async function signIn({ page, runner }: Dashboard, username: string, password: string): Promise<void> {
  await page.goto(`${runner.url}/login`);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('heading', { name: /^Welcome back/ }).waitFor();
}

/** Logs out from the user menu and waits for the sign-in page. */
export async function signOut({ page }: Dashboard, username: string): Promise<void> {
  await page.getByRole('button', { name: `User menu for ${username}` }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
}

/** The few DOM calls `menusSettled` makes (this module is compiled without the DOM's types). */
interface PageGlobals {
  document: { querySelectorAll(selector: string): Iterable<unknown> };
  getComputedStyle(element: unknown): { display: string; opacity: string };
}

/** Runs in the page: every menu, option list, dialog and tooltip is fully shown or hidden, none mid-fade. */
function menusSettled(): boolean {
  const { document, getComputedStyle } = globalThis as unknown as PageGlobals;
  return [
    ...document.querySelectorAll(
      '[role="menu"], [role="listbox"], [role="dialog"], [role="tooltip"], .mantine-Modal-overlay',
    ),
  ].every((element) => {
    const style = getComputedStyle(element);
    return style.display === 'none' || style.opacity === '1';
  });
}

/**
 * axe-core on the page once its menus, option lists, dialogs and tooltips have settled: the serious
 * and critical violations, described. Mantine fades those in and out, and a menu caught fading out
 * after its item was clicked is half torn down (axe then reports its items as
 * `aria-required-children`), a dialog caught fading in has its text at a fraction of its contrast:
 * states no one reads; an open one is judged whole.
 */
export async function seriousA11yViolations(page: Page): Promise<string[]> {
  await page.waitForFunction(menusSettled);
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help} — ${violation.nodes.map((node) => `${node.html.slice(0, 160)} ${node.any[0]?.message ?? ''}`).join(', ')}`,
    );
}
