import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../support/browser.ts';
import { startRunner, stopRunner } from '../support/runner.ts';
import { codeAt, stepNow } from '../support/totp-codes.ts';

/**
 * `npm run screenshots`: every dashboard page, light and dark, desktop and phone width, into
 * docs/screenshots/, against a fresh `npm start` filled with example files.
 */
const out = resolve('docs/screenshots');
mkdirSync(out, { recursive: true });

function chunk(type: string, data: Buffer) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A 320×200 PNG: a diagonal gradient between two colours with a soft sun, like a photo thumbnail. */
function picture(from: number[], to: number[]): Buffer {
  const [width, height] = [320, 200];
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y += 1) {
    const row = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x += 1) {
      const t = (x / width + y / height) / 2;
      const sun = Math.max(0, 1 - Math.hypot(x - 220, y - 70) / 45);
      for (let c = 0; c < 3; c += 1) {
        const base = (from[c] as number) * (1 - t) + (to[c] as number) * t;
        row[1 + x * 3 + c] = Math.round(base + (255 - base) * sun * 0.8);
      }
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const EXAMPLES: [string, string, Buffer][] = [
  ['quarterly-report.pdf', 'application/pdf', Buffer.alloc(182_000, 1)],
  ['team-photo.png', 'image/png', picture([34, 139, 230], [190, 75, 219])],
  [
    'notes.md',
    'text/markdown',
    Buffer.from(
      '# Notes\n\nGrüße aus Köln: the trip is on for Saturday.\n\n- Train at 08:12 from platform 4\n- Tickets in the shared folder\n- Bring the camera (and its charger)\n',
    ),
  ],
  ['sunset.png', 'image/png', picture([250, 82, 82], [253, 126, 20])],
  ['screen-recording.mp4', 'video/mp4', Buffer.alloc(2_400_000, 2)],
  ['forest.png', 'image/png', picture([18, 184, 134], [55, 178, 77])],
  ['podcast-episode-12.mp3', 'audio/mpeg', Buffer.alloc(900_000, 3)],
  ['ocean.png', 'image/png', picture([21, 170, 191], [34, 139, 230])],
  ['backup.zip', 'application/zip', Buffer.alloc(3_100_000, 4)],
  ['screenshot-2026-11-22.png', 'image/png', picture([73, 80, 87], [134, 142, 150])],
];

/** Upload headers of some examples, so the files show their badges: protected, out of views, expiring soon. */
const EXAMPLE_HEADERS: Record<string, Record<string, string>> = {
  'sunset.png': { 'x-zipline-password': 'golden hour' },
  'quarterly-report.pdf': { 'x-zipline-max-views': '1' },
  'backup.zip': { 'x-zipline-deletes-at': '5h' },
};

async function shoot(page: Page, name: string) {
  await page.waitForLoadState('networkidle');
  await page.evaluate(() => document.fonts.ready);
  await page.screenshot({ path: join(out, `${name}.png`), fullPage: false });
}

const dataDir = mkdtempSync(join(tmpdir(), 'file-service-screenshots-'));
const admin = { username: 'alex', password: 'a long passphrase' };
const sam = { username: 'sam', password: 'sam password' };
const runner = await startRunner(dataDir, { CREATE_ADMIN: 'false' });
let browser: Browser | undefined;
try {
  browser = await launchChromium();
  const viewports = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } };
  for (const scheme of ['light', 'dark'] as const) {
    for (const [device, viewport] of Object.entries(viewports)) {
      const context = await browser.newContext({ viewport, colorScheme: scheme, deviceScaleFactor: 1 });
      const page = await context.newPage();
      const shot = (name: string) => shoot(page, `${name}-${scheme}-${device}`);
      if (scheme === 'light' && device === 'desktop') {
        await page.goto(`${runner.url}/setup`);
        await page.getByRole('heading', { name: 'Welcome' }).waitFor();
        await shot('setup');
        await page.request.post(`${runner.url}/api/setup`, { data: admin });
        await page.request.post(`${runner.url}/api/auth/login`, { data: admin });
        for (const [name, type, bytes] of EXAMPLES) {
          const answer = await page.request.post(`${runner.url}/api/upload`, {
            headers: EXAMPLE_HEADERS[name] ?? {},
            multipart: { file: { name, mimeType: type, buffer: bytes } },
          });
          // The report's one view is used up.
          if (name === 'quarterly-report.pdf') await page.request.get((await answer.json()).files[0].url);
        }
        // Two folders holding some of the files, one of them public; and three short links.
        const examples = await (await page.request.get(`${runner.url}/api/user/files?perpage=100`)).json();
        const idOf = (name: string) =>
          (examples.page as { id: string; originalName: string }[]).find((file) => file.originalName === name)
            ?.id;
        for (const [folder, members, open] of [
          ['Trips', ['sunset.png', 'forest.png', 'ocean.png', 'notes.md'], true],
          ['Work', ['quarterly-report.pdf', 'screen-recording.mp4'], false],
        ] as const) {
          const made = await page.request.post(`${runner.url}/api/user/folders`, {
            data: { name: folder, isPublic: open, files: members.map(idOf) },
          });
          if (!made.ok()) throw new Error(`folder ${folder}: ${made.status()} ${await made.text()}`);
        }
        for (const link of [
          { destination: 'https://github.com/alex/dotfiles' },
          { destination: 'https://calendar.example.com/alex/30min', vanity: 'meet' },
          { destination: 'https://docs.example.org/onboarding/week-one', vanity: 'Onboarding' },
        ]) {
          // Zipline's header for a link's view limit.
          const headers: Record<string, string> =
            link.vanity === 'Onboarding' ? { 'x-zipline-max-views': '25' } : {};
          const made = await page.request.post(`${runner.url}/api/user/urls`, { data: link, headers });
          if (!made.ok()) throw new Error(`link ${link.destination}: ${made.status()} ${await made.text()}`);
        }
        // Link settings in use, so the settings page shows its embed preview filled in.
        await page.request.patch(`${runner.url}/api/user`, {
          data: {
            view: {
              embed: true,
              embedTitle: '{file.originalName}',
              embedDescription: '{file.size}, shared by {user.username}',
              embedSiteName: "Alex's files",
              embedColor: '#1c7ed6',
            },
          },
        });
        await page.request.post(`${runner.url}/api/users`, {
          data: { ...sam, role: 'ADMIN' },
        });
        await page.request.post(`${runner.url}/api/users`, {
          data: {
            username: 'robin',
            password: 'robin password',
            quota: { filesQuota: 'BY_BYTES', maxBytes: '5gb', maxFiles: null },
          },
        });
        await page.request.post(`${runner.url}/api/auth/logout`);
        // Sam has two-factor sign-in on: the login page's code prompt is shot with Sam.
        await page.request.post(`${runner.url}/api/auth/login`, { data: sam });
        const offer = await (await page.request.get(`${runner.url}/api/user/mfa/totp`)).json();
        await page.request.post(`${runner.url}/api/user/mfa/totp`, {
          data: { secret: offer.secret, code: codeAt(offer.secret, stepNow()) },
        });
        await page.request.post(`${runner.url}/api/auth/logout`);
      }
      await page.goto(`${runner.url}/login`);
      await page.getByLabel('Username').fill(sam.username);
      await page.getByLabel(/^Password/).fill(sam.password);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.getByRole('textbox', { name: 'Authentication code' }).waitFor();
      await shot('login-code');
      await page.goto(`${runner.url}/login`);
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
      await shot('login');
      await page.getByLabel('Username').fill(admin.username);
      await page.getByLabel(/^Password/).fill(admin.password);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      // The landing page: figures, recent files with their previews, the quick upload.
      await page.getByRole('list', { name: 'Recent files' }).waitFor();
      await page.waitForFunction(() => [...document.images].every((image) => image.complete));
      await shot('home');
      await page.goto(`${runner.url}/files`);
      await page
        .getByRole('listitem')
        .nth(EXAMPLES.length - 1)
        .waitFor();
      await page.waitForFunction(() => [...document.images].every((image) => image.complete));
      await shot('files-grid');
      await page.goto(`${runner.url}/files?view=table`);
      await page.locator('tbody tr').first().waitFor();
      await shot('files-table');
      // The detail view of an image, and of a text file.
      await page.goto(`${runner.url}/files`);
      await page.getByRole('button', { name: 'team-photo.png', exact: true }).click();
      await page.waitForFunction(() => {
        const image = document.querySelector<HTMLImageElement>('[role=dialog] img');
        return image?.complete && image.naturalWidth > 0;
      });
      await shot('file-detail');
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'detached' });
      await page.getByRole('button', { name: 'notes.md', exact: true }).click();
      await page.getByLabel('Contents of notes.md').getByText('Grüße aus Köln', { exact: false }).waitFor();
      await shot('file-detail-text');
      await page.goto(`${runner.url}/upload`);
      await page.locator('input[type=file]').setInputFiles([
        { name: 'holiday.png', mimeType: 'image/png', buffer: picture([250, 176, 5], [240, 62, 62]) },
        { name: 'slides.pdf', mimeType: 'application/pdf', buffer: Buffer.alloc(40_000, 5) },
      ]);
      await page.getByRole('button', { name: 'Copy link to slides.pdf' }).waitFor();
      await page.getByRole('button', { name: 'Copy link to holiday.png' }).waitFor();
      await shot('upload');
      // Back to the example files only, so every variant shows the same list.
      const listing = await (await page.request.get(`${runner.url}/api/user/files?perpage=100`)).json();
      for (const file of listing.page as { id: string; originalName: string }[]) {
        if (file.originalName === 'holiday.png' || file.originalName === 'slides.pdf') {
          await page.request.delete(`${runner.url}/api/user/files/${file.id}`);
        }
      }
      await page.goto(`${runner.url}/folders`);
      await page.getByRole('heading', { name: 'Folders' }).waitFor();
      await page.getByRole('textbox', { name: 'Name of Work' }).waitFor();
      await shot('folders');
      await page.goto(`${runner.url}/links`);
      await page.getByRole('heading', { name: 'Links' }).waitFor();
      await page.getByText('/go/Onboarding').first().waitFor();
      await shot('links');
      for (const tab of ['account', 'view', 'uploaders']) {
        await page.goto(`${runner.url}/settings?tab=${tab}`);
        await page.getByRole('heading', { name: 'Settings' }).waitFor();
        await shot(`settings-${tab}`);
      }
      // Two-factor sign-in being set up: the QR code and the key beside the code field.
      await page.goto(`${runner.url}/settings?tab=account`);
      await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
      const twoFactor = page.getByRole('region', { name: 'Two-factor authentication' });
      await twoFactor.getByRole('img', { name: 'QR code to scan with your authenticator app' }).waitFor();
      await twoFactor.scrollIntoViewIfNeeded();
      await shot('settings-totp');
      await page.goto(`${runner.url}/users`);
      await page.getByRole('row', { name: /robin/ }).waitFor();
      await shot('users');
      await page.goto(`${runner.url}/metrics`);
      await page.getByRole('figure', { name: 'Top users' }).waitFor();
      await shot('metrics');
      await context.close();
    }
  }
  console.log(`screenshots written to ${out}`);
} finally {
  await browser?.close();
  await stopRunner(runner);
  rmSync(dataDir, { recursive: true, force: true });
}
