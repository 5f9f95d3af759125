import { readFileSync } from 'node:fs';
import { dashboardFixture } from './fixture.ts';

/**
 * The Links page in Chromium against `npm start` (issue 34): shorten a link with a vanity, a view
 * limit and a password, copy it, search, sort, edit (disable), delete; the ShareX URL-shortener
 * config beside the uploader's, used as ShareX uses it. axe checks the page and its dialog.
 */
const ui = dashboardFixture('links', { screenshots: 'LINKS_SCREENSHOTS' });

const dialog = () => ui.page.getByRole('dialog');
const row = (text: string) => ui.page.getByRole('row').filter({ hasText: text });
/** Where `/go/...` sends a visitor, without following it. */
const visit = async (path: string) => {
  const answer = await fetch(`${ui.runner.url}${path}`, { redirect: 'manual' });
  return { status: answer.status, location: answer.headers.get('location') };
};

test('shorten, copy, search, sort, edit and delete links', async () => {
  await ui.signIn();
  await ui.page.getByRole('navigation').getByRole('link', { name: 'Links' }).click();
  await ui.page.getByRole('heading', { name: 'Links' }).waitFor();
  await ui.page.getByText('No short links yet. Shorten one to share it.').waitFor();
  await ui.a11y();

  // A plain link, then one with a vanity, a limit and a password.
  await ui.page.getByRole('button', { name: 'Shorten a link' }).click();
  await dialog().getByRole('textbox', { name: 'Destination' }).fill('https://example.com/first');
  await ui.a11y();
  await dialog().getByRole('button', { name: 'Shorten' }).click();
  await row('https://example.com/first').waitFor();
  await ui.page.getByRole('button', { name: 'Shorten a link' }).click();
  await dialog().getByRole('textbox', { name: 'Destination' }).fill('https://example.org/second/page');
  await dialog().getByRole('textbox', { name: 'Vanity name' }).fill('Docs');
  await dialog().getByRole('textbox', { name: 'Max views' }).fill('5');
  await dialog().getByRole('textbox', { name: 'Password' }).fill('link password');
  await dialog().getByRole('button', { name: 'Shorten' }).click();
  const docs = row('/go/Docs');
  await docs.getByText('Password').waitFor();
  await docs.getByText('0 / 5').waitFor();
  // A vanity is one name whatever its case: a second "docs" is refused with the API's message.
  await ui.page.getByRole('button', { name: 'Shorten a link' }).click();
  await dialog().getByRole('textbox', { name: 'Destination' }).fill('https://example.net');
  await dialog().getByRole('textbox', { name: 'Vanity name' }).fill('docs');
  await dialog().getByRole('button', { name: 'Shorten' }).click();
  await dialog().getByRole('alert').getByText('vanity is already taken').waitFor();
  await ui.shot('links-refused');
  await dialog().getByRole('button', { name: 'Cancel' }).click();
  await dialog().waitFor({ state: 'detached' });
  await ui.shot('links');

  // Copy: the clipboard holds the full short link, and it redirects (the protected one to its form).
  await docs.getByRole('button', { name: `Copy ${ui.runner.url}/go/Docs` }).click();
  expect(await ui.page.evaluate(() => navigator.clipboard.readText())).toBe(`${ui.runner.url}/go/Docs`);
  const firstCode = (
    (await row('https://example.com/first')
      .getByText(/^\/go\//)
      .textContent()) ?? ''
  ).slice(4);
  expect(await visit(`/go/${firstCode}`)).toEqual({ status: 302, location: 'https://example.com/first' });
  expect((await visit('/go/docs')).location).toMatch(/^\/view\/url\/[a-z0-9]{12}$/);

  // A visitor's browser: the protected link's form, without script, passes axe too.
  await ui.page.goto(`${ui.runner.url}/go/docs`);
  await ui.page.getByRole('heading', { name: 'Password required' }).waitFor();
  expect(new URL(ui.page.url()).pathname).toMatch(/^\/view\/url\/[a-z0-9]{12}$/);
  await ui.a11y();
  await ui.shot('link-password');
  await ui.page.goto(`${ui.runner.url}/links`);

  // Search (by destination, then by vanity) and sort by views.
  await ui.page.getByRole('textbox', { name: 'Search' }).fill('example.org');
  await row('https://example.com/first').waitFor({ state: 'detached' });
  await docs.waitFor();
  await ui.page.getByRole('textbox', { name: 'Search' }).fill('');
  await row('https://example.com/first').waitFor();
  await ui.page.reload();
  await row('https://example.com/first').getByRole('cell', { name: '1', exact: true }).waitFor();
  await ui.page.getByRole('combobox', { name: 'Sort' }).click();
  await ui.page.getByRole('option', { name: 'Most views' }).click();
  expect(await ui.page.getByRole('row').nth(1).textContent()).toContain('https://example.com/first');

  // Edit: disabled, the link answers 404; delete after confirming.
  await docs.getByRole('button', { name: 'Edit /go/Docs' }).click();
  await dialog().getByRole('checkbox', { name: 'Enabled' }).uncheck();
  await ui.a11y();
  await dialog().getByRole('button', { name: 'Save' }).click();
  await docs.getByText('Disabled').waitFor();
  expect((await visit('/go/Docs')).status).toBe(404);
  await docs.getByRole('button', { name: 'Delete /go/Docs' }).click();
  await dialog().getByRole('button', { name: 'Delete link' }).click();
  await docs.waitFor({ state: 'detached' });
}, 300_000);

test('the ShareX URL shortener config shortens as ShareX sends it', async () => {
  await ui.page.goto(`${ui.runner.url}/settings?tab=uploaders`);
  await ui.page.getByRole('button', { name: 'ShareX URL shortener (.sxcu)' }).waitFor();
  await ui.a11y();
  const [sxcu] = await Promise.all([
    ui.page.waitForEvent('download'),
    ui.page.getByRole('button', { name: 'ShareX URL shortener (.sxcu)' }).click(),
  ]);
  const config = JSON.parse(readFileSync((await sxcu.path()) as string, 'utf8'));
  expect(config).toMatchObject({
    DestinationType: 'URLShortener',
    RequestURL: `${ui.runner.url}/api/user/urls`,
  });
  // ShareX puts the link to shorten where `{input}` is and reads the answer's `url`.
  const answer = await fetch(config.RequestURL, {
    method: config.RequestMethod,
    headers: { ...config.Headers, 'content-type': 'application/json' },
    body: config.Data.replace('{input}', 'https://example.com/from-sharex'),
  });
  expect(answer.status).toBe(200);
  const { url } = (await answer.json()) as { url: string };
  expect(url).toMatch(new RegExp(`^${ui.runner.url}/go/[a-z0-9]{12}$`));
  expect(await visit(new URL(url).pathname)).toEqual({
    status: 302,
    location: 'https://example.com/from-sharex',
  });
});
