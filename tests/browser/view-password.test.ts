import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { createLocalServer } from '../../infra/local/server.ts';
import { launchChromium } from '../support/browser.ts';
import { call } from '../support/client.ts';
import { upload } from '../support/files.ts';
import { PNG_1X1 } from '../support/pixels.ts';
import { signedInUser } from '../support/users.ts';

/**
 * The view page's password form as a visitor uses it, in Chromium with JavaScript switched off:
 * the link shows the form, a wrong password shows it again, the right one shows the image.
 */
let browser: Browser;
let runner: Server;
let runnerUrl: string;

beforeAll(async () => {
  runner = createLocalServer({ log: () => {} });
  await new Promise<void>((resolve) => runner.listen(0, '127.0.0.1', resolve));
  runnerUrl = `http://127.0.0.1:${(runner.address() as AddressInfo).port}`;
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  runner?.close();
});

test('without JavaScript, the form opens a protected image page', async () => {
  const owner = await signedInUser();
  await call('PATCH', '/api/user', { token: owner.token, json: { view: { enabled: true } } });
  const [file] = await upload(
    owner.token,
    [{ fileName: 'secret.png', type: 'image/png', content: PNG_1X1 }],
    {
      'x-zipline-password': 'open sesame',
    },
  );
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  const images: number[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'image') images.push(response.status());
  });

  const first = await page.goto(`${runnerUrl}/view/${file?.name}`);
  expect(first?.status()).toBe(404);
  await page.getByLabel('Password').fill('not it');
  const posted = (response: { request(): { method(): string } }) => response.request().method() === 'POST';
  const [refused] = await Promise.all([
    page.waitForResponse(posted),
    page.getByRole('button', { name: 'Open' }).click(),
  ]);
  expect(refused.status()).toBe(404);
  await page.getByText('That password did not open a file at this link.').waitFor();

  await page.getByLabel('Password').fill('open sesame');
  const [opened] = await Promise.all([
    page.waitForResponse(posted),
    page.getByRole('button', { name: 'Open' }).click(),
  ]);
  expect(opened.status()).toBe(200);
  await page.getByRole('img', { name: file?.name }).waitFor();
  await page.waitForLoadState('load');
  expect(images).toEqual([200]);
  expect((await call('GET', `/api/user/files/${file?.id}`, { token: owner.token })).body.views).toBe(1);
  await context.close();
});
