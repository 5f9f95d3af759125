import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import {
  closeDashboard,
  type Dashboard,
  openDashboard,
  seriousA11yViolations,
  signIn,
} from '../support/dashboard.ts';

/** The administrator `npm start` creates in every browser test that opens the dashboard this way. */
export const ADMIN = { username: 'admin', password: 'admin password' };

export interface FixtureOptions {
  /** Variables for the runner beyond the administrator's (sign-in providers…), read when it starts. */
  env?: () => Record<string, string>;
  /** The variable naming a directory to keep the screenshots in (`TAGS_SCREENSHOTS=<dir>`); none: no files. */
  screenshots?: string;
  /** How long starting the runner and Chromium may take on a loaded machine (a first build is slow). */
  openTimeoutMs?: number;
}

/** The dashboard of one test file, opened before its tests, and the steps every browser test repeats. */
export interface DashboardFixture extends Dashboard {
  /** No serious or critical axe violation on the page as it is now. */
  a11y(): Promise<void>;
  /** Keeps a screenshot `<name>.png` (of `page`, else the dashboard's) when the file's screenshot variable names a directory. */
  shot(name: string, options?: { fullPage?: boolean; page?: Page }): Promise<void>;
  /** Light and dark at desktop width, dark at phone width: each passes axe (and is kept as `shot`s). */
  everyLook(name: string): Promise<void>;
  /** Signs in on the login page (the administrator unless told) and waits for Home. */
  signIn(username?: string, password?: string): Promise<void>;
}

const LOOKS = [
  ['light', 1280, 800],
  ['dark', 1280, 800],
  ['dark', 390, 844],
] as const;

/**
 * `npm start` and Chromium for the test file that calls it (at its top level): opened in a
 * `beforeAll`, closed in an `afterAll`. The fields of `Dashboard` are filled in when it opens, so
 * tests read them (`ui.page`) inside their bodies, never at the file's top level.
 */
export function dashboardFixture(name: string, options: FixtureOptions = {}): DashboardFixture {
  const directory = options.screenshots ? process.env[options.screenshots] : undefined;
  const fixture = {
    async a11y() {
      expect(await seriousA11yViolations(fixture.page)).toEqual([]);
    },
    async shot(
      shotName: string,
      { fullPage = true, page = fixture.page }: { fullPage?: boolean; page?: Page } = {},
    ) {
      if (!directory) return;
      mkdirSync(directory, { recursive: true });
      await page.screenshot({ path: `${directory}/${shotName}.png`, fullPage });
    },
    async everyLook(lookName: string) {
      for (const [scheme, width, height] of LOOKS) {
        await fixture.page.emulateMedia({ colorScheme: scheme });
        await fixture.page.setViewportSize({ width, height });
        await fixture.a11y();
        await fixture.shot(`${lookName}-${scheme}-${width}`);
      }
      await fixture.page.emulateMedia({ colorScheme: 'light' });
      await fixture.page.setViewportSize({ width: 1280, height: 800 });
    },
    signIn: (username = ADMIN.username, password = ADMIN.password) => signIn(fixture, username, password),
  } as DashboardFixture;
  beforeAll(async () => {
    Object.assign(fixture, await openDashboard(`file-service-browser-${name}-`, ADMIN, options.env?.()));
  }, options.openTimeoutMs ?? 120_000);
  afterAll(() => closeDashboard(fixture.runner ? fixture : undefined));
  return fixture;
}
