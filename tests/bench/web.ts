import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ensureWebBuild, WEB_DIST } from '../../infra/local/web-build.ts';
import { launchChromium } from '../support/browser.ts';
import { startRunner, stopRunner } from '../support/runner.ts';

/**
 * `npm run bench:web`: the dashboard's budgets, printed (not asserted): JavaScript and CSS the login
 * page loads, gzipped (budget 250 KB), and sign-in submitted → files page showing 15 files in
 * headless Chromium against `npm start` (budget 1.5 s; median of 5).
 */
ensureWebBuild();
const html = readFileSync(join(WEB_DIST, 'index.html'), 'utf8');
const firstLoad = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/g)].map(
  (match) => match[1] as string,
);
let gzipped = 0;
for (const asset of firstLoad) {
  const bytes = gzipSync(readFileSync(join(WEB_DIST, asset)), { level: 9 }).length;
  gzipped += bytes;
  console.log(`  ${asset}: ${(bytes / 1024).toFixed(1)} KB gzipped`);
}
console.log(
  `first load of the login page: ${(gzipped / 1024).toFixed(1)} KB of JS + CSS gzipped (budget 250 KB)`,
);

const dataDir = mkdtempSync(join(tmpdir(), 'file-service-bench-web-'));
const admin = { username: 'bench', password: 'bench password' };
const runner = await startRunner(dataDir, { ADMIN_USERNAME: admin.username, ADMIN_PASSWORD: admin.password });
const browser = await launchChromium();
try {
  const login = await fetch(`${runner.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(admin),
  });
  const cookie = (login.headers.getSetCookie()[0] as string).split(';')[0] as string;
  for (let index = 0; index < 15; index += 1) {
    const form = new FormData();
    form.append('file', new Blob([`file ${index}`], { type: 'text/plain' }), `file-${index}.txt`);
    await fetch(`${runner.url}/api/upload`, { method: 'POST', headers: { cookie }, body: form });
  }
  const times: number[] = [];
  for (let run = 0; run < 6; run += 1) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${runner.url}/login`);
    await page.getByLabel('Username').fill(admin.username);
    await page.getByLabel(/^Password/).fill(admin.password);
    const started = performance.now();
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForFunction(() => document.querySelectorAll('[role=listitem]').length === 15);
    // The first run warms the runner's handlers; it is not counted.
    if (run > 0) times.push(performance.now() - started);
    await context.close();
  }
  times.sort((a, b) => a - b);
  console.log(
    `sign-in → 15 files shown: median ${times[Math.floor(times.length / 2)]?.toFixed(0)} ms (min ${times[0]?.toFixed(0)}, max ${times.at(-1)?.toFixed(0)}; budget 1500 ms)`,
  );
} finally {
  await browser.close();
  await stopRunner(runner);
  rmSync(dataDir, { recursive: true, force: true });
}
