import { dashboardFixture } from './fixture.ts';

/**
 * Issue 37's paste flow in Chromium against `npm start`: "Upload text" with a file name that says
 * Python and a view limit of 2, then the file's page (no script on it at all) with the code
 * highlighted and numbered, its wrap checkbox, in dark, light and on a phone. Screenshots go to
 * TEXT_SCREENSHOTS when it is set.
 */
const ui = dashboardFixture('paste', { screenshots: 'TEXT_SCREENSHOTS' });

const SOURCE = `import sys

def greet(name: str) -> str:
    """Say hello to someone with a rather long docstring that will need wrapping on a narrow phone screen."""
    return f"Hello, {name}!"  # the greeting

if __name__ == "__main__":
    print(greet(sys.argv[1] if len(sys.argv) > 1 else "world"))
`;

test('a paste becomes a highlighted page: numbered lines, wrap toggle, light and dark', async () => {
  await ui.signIn();
  const enabled = await ui.page.evaluate(async () => {
    const answer = await fetch('/api/user', {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ view: { enabled: true } }),
    });
    return answer.status;
  });
  expect(enabled).toBe(200);

  await ui.page.getByRole('navigation').getByRole('link', { name: 'Upload text' }).click();
  await ui.page.getByRole('heading', { name: 'Upload text' }).waitFor();
  await ui.page.getByRole('textbox', { name: 'File name' }).fill('greet');
  await ui.page.getByRole('combobox', { name: 'Language' }).click();
  await ui.page.getByRole('option', { name: 'Python', exact: true }).click();
  await ui.page.getByRole('textbox', { name: /^Text/ }).fill(SOURCE);
  await ui.page.getByRole('textbox', { name: 'Max views' }).fill('2');
  await ui.page.getByText('Uploaded as greet.py').waitFor();
  await ui.a11y();
  await ui.page.emulateMedia({ colorScheme: 'dark' });
  await ui.shot('paste-dark');
  await ui.page.emulateMedia({ colorScheme: 'light' });
  await ui.page.setViewportSize({ width: 390, height: 844 });
  await ui.shot('paste-light-phone');
  await ui.page.setViewportSize({ width: 1280, height: 720 });
  await ui.page.getByRole('button', { name: 'Upload', exact: true }).click();
  const url = (await ui.page.getByRole('status').textContent())?.trim() as string;
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/u\/.+\.py$/);

  // The page, as a visitor opens it: JavaScript off proves nothing on it needs script.
  const visitor = await ui.browser.newContext({ javaScriptEnabled: false, colorScheme: 'dark' });
  const view = await visitor.newPage();
  view.setDefaultTimeout(90_000);
  const response = await view.goto(url);
  expect(response?.status()).toBe(200);
  expect(response?.headers()['content-security-policy']).toMatch(/^default-src 'none'; /);
  await view.getByText('Python', { exact: true }).waitFor();
  expect(await view.locator('.code .l').count()).toBe(SOURCE.split('\n').length - 1);
  expect(await view.locator('.t-keyword').first().textContent()).toBe('import');
  const colour = (selector: string) =>
    view
      .locator(selector)
      .first()
      .evaluate((element) => getComputedStyle(element).color);
  const darkKeyword = await colour('.t-keyword');
  expect(darkKeyword).not.toBe(await colour('.t-comment'));
  // Line numbers are drawn by the stylesheet: the first line's number is 1.
  expect(
    await view
      .locator('.code .l')
      .first()
      .evaluate((line) => getComputedStyle(line, '::before').content),
  ).toBe('counter(line)');
  await ui.shot('view-code-dark', { page: view });

  const whiteSpace = () => view.locator('.code pre').evaluate((pre) => getComputedStyle(pre).whiteSpace);
  expect(await whiteSpace()).toBe('pre');
  await view.getByLabel('Wrap lines').check();
  expect(await whiteSpace()).toBe('pre-wrap');

  await view.emulateMedia({ colorScheme: 'light' });
  expect(await colour('.t-keyword')).not.toBe(darkKeyword);
  expect(await view.locator('body').evaluate((body) => getComputedStyle(body).backgroundColor)).toBe(
    'rgb(255, 255, 255)',
  );
  await ui.shot('view-code-light', { page: view });
  await visitor.close();

  // A phone, the second (and last) view the paste allows.
  const phone = await ui.browser.newContext({
    javaScriptEnabled: false,
    colorScheme: 'dark',
    viewport: { width: 390, height: 844 },
  });
  const small = await phone.newPage();
  small.setDefaultTimeout(90_000);
  expect((await small.goto(url))?.status()).toBe(200);
  await small.getByLabel('Wrap lines').check();
  await ui.shot('view-code-phone', { page: small });
  expect((await small.goto(url))?.status()).toBe(404);
  await phone.close();
}, 300_000);

test('a Markdown paste is rendered: headings, a table, highlighted fences; a remote image is a link', async () => {
  await ui.page.getByRole('navigation').getByRole('link', { name: 'Upload text' }).click();
  await ui.page.getByRole('textbox', { name: 'File name' }).fill('README.md');
  await ui.page.getByRole('combobox', { name: 'Language' }).click();
  await ui.page.getByRole('option', { name: 'Guess from the file name' }).click();
  await ui.page.getByRole('textbox', { name: 'Max views' }).fill('');
  await ui.page
    .getByRole('textbox', { name: /^Text/ })
    .fill(
      '# Project\n\nSome **bold** text, a [link](https://example.com) and `code`.\n\n' +
        '| Name | Size |\n|:-----|-----:|\n| a.txt | 12 B |\n\n```ts\nconst x: number = 1;\n```\n\n' +
        '> A quote\n\n![diagram](https://images.example/d.png)\n\n<script>alert(1)</script>\n',
    );
  await ui.page.getByText('Uploaded as README.md').waitFor();
  await ui.page.getByRole('button', { name: 'Upload', exact: true }).click();
  const url = (
    await ui.page.getByRole('status').filter({ hasText: /\.md$/ }).textContent()
  )?.trim() as string;
  expect(url).toMatch(/\/u\/.+\.md$/);

  const visitor = await ui.browser.newContext({ javaScriptEnabled: false, colorScheme: 'dark' });
  const view = await visitor.newPage();
  view.setDefaultTimeout(90_000);
  expect((await view.goto(url))?.status()).toBe(200);
  await view.getByRole('heading', { name: 'Project' }).waitFor();
  expect(await view.locator('.markdown table td').allTextContents()).toEqual(['a.txt', '12 B']);
  expect(await view.locator('.markdown .t-keyword').first().textContent()).toBe('const');
  expect(await view.getByRole('link', { name: 'Image: diagram' }).getAttribute('href')).toBe(
    'https://images.example/d.png',
  );
  expect(await view.locator('.markdown').textContent()).toContain('<script>alert(1)</script>');
  expect(await view.locator('.markdown script, .markdown img').count()).toBe(0);
  await ui.shot('view-markdown-dark', { page: view });
  await visitor.close();
}, 300_000);
