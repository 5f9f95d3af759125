import { dashboardFixture } from './fixture.ts';

/**
 * The Folders page and the bulk bar's move in Chromium against `npm start` (issue 35): create a
 * folder, make it public (its link appears), move two files into it from the files page in one bulk
 * request, open its files; tag files from the bulk bar in one request; the public folder page with
 * its previews. Screenshots (light, dark, phone) when FOLDERS_SCREENSHOTS names a folder.
 */
const ui = dashboardFixture('folders', { screenshots: 'FOLDERS_SCREENSHOTS', openTimeoutMs: 900_000 });
let folderPath = '';

test('create a public folder, move two files into it in bulk, open its files', async () => {
  await ui.signIn();
  const uploaded = await ui.page.evaluate(async () => {
    const form = new FormData();
    form.append('file', new Blob(['alpha'], { type: 'text/plain' }), 'alpha.txt');
    form.append('file', new Blob(['beta'], { type: 'text/plain' }), 'beta.txt');
    form.append('file', new Blob(['gamma'], { type: 'text/plain' }), 'gamma.txt');
    const answer = await fetch('/api/upload', { method: 'POST', body: form });
    return answer.status;
  });
  expect(uploaded).toBe(200);

  await ui.page.getByRole('navigation').getByRole('link', { name: 'Folders' }).click();
  await ui.page.getByRole('heading', { name: 'Folders' }).waitFor();
  await ui.page.getByText('No folders yet.').waitFor();
  await ui.page.getByRole('textbox', { name: 'New folder' }).fill('Trips');
  await ui.page.getByRole('button', { name: 'Create' }).click();
  await ui.page.getByRole('textbox', { name: 'Name of Trips' }).waitFor();
  await ui.page.getByRole('switch', { name: 'Public' }).click();
  await ui.page.getByRole('link', { name: /^\/folder\// }).waitFor();
  folderPath = new URL(
    (await ui.page.getByRole('link', { name: /^\/folder\// }).getAttribute('href')) as string,
    ui.page.url(),
  ).pathname;

  await ui.page.getByRole('navigation').getByRole('link', { name: 'Files' }).click();
  await ui.page.getByRole('checkbox', { name: 'Select alpha.txt' }).click();
  await ui.page.getByRole('checkbox', { name: 'Select beta.txt' }).click();
  await ui.page.getByRole('button', { name: 'Move to folder' }).click();
  const requests: string[] = [];
  ui.page.on('request', (request) => {
    if (request.url().includes('/api/user/files/'))
      requests.push(`${request.method()} ${new URL(request.url()).pathname}`);
  });
  await ui.page.getByRole('menuitem', { name: 'Trips' }).click();
  await ui.page.getByText('2 files moved to Trips').waitFor();
  expect(requests.filter((request) => !request.startsWith('GET'))).toEqual([
    'PATCH /api/user/files/transaction',
  ]);

  await ui.page.getByRole('navigation').getByRole('link', { name: 'Folders' }).click();
  await ui.page.getByRole('link', { name: '2 files' }).waitFor();
  await ui.shot('folders-light');
  await ui.page.emulateMedia({ colorScheme: 'dark' });
  await ui.shot('folders-dark');
  await ui.page.setViewportSize({ width: 390, height: 844 });
  // Loaded at that width: the navigation starts closed, not sliding away.
  await ui.page.reload();
  await ui.page.getByRole('link', { name: '2 files' }).waitFor();
  await ui.shot('folders-phone');
  await ui.page.setViewportSize({ width: 1280, height: 800 });
  await ui.page.emulateMedia({ colorScheme: 'light' });
  await ui.page.reload();
  await ui.page.getByRole('link', { name: '2 files' }).click();
  await ui.page.getByRole('checkbox', { name: 'Select alpha.txt' }).waitFor();
  await ui.page.getByRole('checkbox', { name: 'Select beta.txt' }).waitFor();
  expect(await ui.page.getByRole('checkbox', { name: 'Select gamma.txt' }).count()).toBe(0);
}, 600_000);

test('tag selected files from the bulk bar in one request, then see the public folder page', async () => {
  await ui.page.setViewportSize({ width: 1280, height: 800 });
  await ui.page.emulateMedia({ colorScheme: 'light' });
  // A tag, and a picture in the folder (drawn by the browser: a gradient PNG).
  const made = await ui.page.evaluate(async (folder) => {
    const tag = await fetch('/api/user/tags', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Work', color: '#2f9e44' }),
    });
    const canvas = document.createElement('canvas');
    [canvas.width, canvas.height] = [320, 200];
    const context = canvas.getContext('2d') as CanvasRenderingContext2D;
    const gradient = context.createLinearGradient(0, 0, 320, 200);
    gradient.addColorStop(0, '#1c7ed6');
    gradient.addColorStop(1, '#f76707');
    context.fillStyle = gradient;
    context.fillRect(0, 0, 320, 200);
    const png = await new Promise<Blob>((resolve) =>
      canvas.toBlob((blob) => resolve(blob as Blob), 'image/png'),
    );
    const form = new FormData();
    form.append('file', png, 'sunset.png');
    form.append(
      'file',
      new Blob(['def hello():\n    return "folder"\n'], { type: 'text/x-python' }),
      'hello.py',
    );
    const sent = await fetch('/api/upload', {
      method: 'POST',
      body: form,
      headers: { 'x-zipline-folder': folder.split('/').pop() as string },
    });
    return [tag.status, sent.status];
  }, folderPath);
  expect(made).toEqual([200, 200]);

  await ui.page.getByRole('navigation').getByRole('link', { name: 'Files' }).click();
  await ui.page.getByRole('checkbox', { name: 'Select alpha.txt' }).click();
  await ui.page.getByRole('checkbox', { name: 'Select gamma.txt' }).click();
  await ui.page.getByRole('button', { name: 'Tag', exact: true }).click();
  await ui.page.getByRole('menuitem', { name: 'Work' }).first().waitFor();
  await ui.shot('bulk-tag-menu', { fullPage: false });
  const requests: string[] = [];
  ui.page.on('request', (request) => {
    if (request.url().includes('/api/user/files/') && request.method() !== 'GET')
      requests.push(`${request.method()} ${new URL(request.url()).pathname} ${request.postData()}`);
  });
  await ui.page.getByRole('menuitem', { name: 'Work' }).first().click();
  await ui.page.getByText('2 files tagged Work').waitFor();
  expect(requests).toHaveLength(1);
  expect(requests[0]).toMatch(/^PATCH \/api\/user\/files\/transaction /);
  expect(JSON.parse((requests[0] as string).split(' ').slice(2).join(' ')).tags).toEqual({
    add: [expect.any(String)],
  });
  // The chips follow: alpha and gamma carry the tag, beta does not.
  await ui.page.getByTitle('Tag: Work').nth(1).waitFor();
  expect(await ui.page.getByTitle('Tag: Work').count()).toBe(2);
  await ui.shot('bulk-tagged', { fullPage: false });

  // The public folder page: server-rendered cards, the picture inline, the code's first lines.
  await ui.page.goto(new URL(folderPath, ui.page.url()).toString());
  await ui.page.getByRole('heading', { name: 'Trips' }).waitFor();
  // The picture, loaded from its presigned URL under the page's CSP (a blocked one has no width).
  const picture = ui.page.locator('.card img').first();
  await picture.waitFor();
  await ui.page.waitForFunction(() => {
    const image = document.querySelector('.card img') as HTMLImageElement | null;
    return image?.complete === true && image.naturalWidth > 0;
  });
  expect(await ui.page.locator('.card img').count()).toBe(1);
  await ui.page.getByText('def hello():').waitFor();
  expect(await ui.page.locator('script').count()).toBe(0);
  await ui.shot('folder-page-light');
  await ui.page.emulateMedia({ colorScheme: 'dark' });
  await ui.shot('folder-page-dark');
  await ui.page.setViewportSize({ width: 390, height: 844 });
  await ui.shot('folder-page-phone');
}, 600_000);
