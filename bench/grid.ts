import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { hashPassword } from '#shared/auth/password';
import { createUser } from '#shared/users/creation';
import { createObjectEventFeed } from '../infra/local/object-events.ts';
import type { S3Local } from '../infra/local/s3.ts';
import { createLocalServer } from '../infra/local/server.ts';
import { createStaticSite } from '../infra/local/static.ts';
import { ensureWebBuild, WEB_DIST } from '../infra/local/web-build.ts';
import { launchChromium } from '../tests/support/browser.ts';
import { call, cookieValue } from '../tests/support/client.ts';
import { multipart } from '../tests/support/multipart.ts';

export interface GridFigures {
  images: number;
  /** Requests for thumbnails (the owner's `/thumbnail` route) while the grid loads. */
  thumbnails: number;
  /** Requests for originals (`/raw`, the owner's `/raw` route, or `files/` objects on S3). */
  originals: number;
}

/** A 1600×1200 photo-like PNG (a gradient), as a screenshot or a phone picture would be. */
const photo = (seed: number) =>
  sharp({ create: { width: 1600, height: 1200, channels: 3, background: { r: seed * 16, g: 90, b: 160 } } })
    .png()
    .toBuffer();

/**
 * The files grid of 15 images in headless Chromium: the dashboard served as `npm start` serves it,
 * each upload's object-created event fed to the thumbnail function, then sign in, wait for the 15
 * cards, scroll to the end and count what the page requested.
 */
export async function measureGrid(s3Local: S3Local): Promise<GridFigures> {
  ensureWebBuild();
  const objectEvents = createObjectEventFeed(() => {});
  s3Local.onObjectEvent((event) => objectEvents.handle(event));
  const password = 'grid bench password';
  const username = `bench-grid-${process.pid}`;
  await createUser({ username, passwordHash: await hashPassword(password), role: 'USER' });
  const login = await call('POST', '/api/auth/login', { json: { username, password } });
  const cookie = cookieValue(login.cookies[0]);
  for (let index = 0; index < 15; index++) {
    const { body, contentType } = multipart([
      { fileName: `photo-${index}.png`, type: 'image/png', content: await photo(index) },
    ]);
    const uploaded = await call('POST', '/api/upload', {
      cookie,
      raw: body,
      headers: { 'content-type': contentType },
    });
    if (uploaded.status !== 200) throw new Error(`grid fixture upload failed: ${uploaded.text}`);
  }
  await objectEvents.settled();

  const server: Server = createLocalServer({
    log: () => {},
    site: createStaticSite(WEB_DIST, { s3Origin: s3Local.endpoint }),
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const browser = await launchChromium();
  try {
    const page = await (await browser.newContext()).newPage();
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    // Sign-in lands on Home (issue 36); the files grid is what this measures.
    await page.goto(`${url}/login?next=/files`);
    await page.getByLabel('Username').fill(username);
    await page.getByLabel(/^Password/).fill(password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.locator('[role=listitem]').nth(14).waitFor();
    await page.mouse.wheel(0, 20_000);
    await page.waitForLoadState('networkidle');
    const paths = requested.map((address) => new URL(address).pathname);
    return {
      images: 15,
      thumbnails: paths.filter((path) => /^\/api\/user\/files\/[^/]+\/thumbnail$/.test(path)).length,
      // The owner's raw route, a public link, or the bytes themselves on S3 (`/<bucket>/files/...`).
      originals: paths.filter(
        (path) =>
          /^\/api\/user\/files\/[^/]+\/raw$/.test(path) ||
          /^\/(raw|r|u)\//.test(path) ||
          (!path.startsWith('/api/') && /^\/[^/]+\/files\//.test(path)),
      ).length,
    };
  } finally {
    await browser.close();
    server.close();
  }
}
