import { dashboardFixture } from './fixture.ts';

/**
 * Tags in the dashboard, in Chromium against `npm start` (issue 35, docs/tags.md): the tag editor
 * (create, rename, recolour, delete), a file's tags set in its edit dialog, the chips in the table,
 * the grid and the detail view, and the tag filter. axe checks the page and the dialogs, light and
 * dark, at desktop and phone width. `TAGS_SCREENSHOTS=<dir>` keeps screenshots of each.
 */
const ui = dashboardFixture('tags', { screenshots: 'TAGS_SCREENSHOTS' });

const dialog = (name: string | RegExp) => ui.page.getByRole('dialog', { name });
const row = (name: string) => ui.page.getByRole('row', { name: new RegExp(name.replace('.', '\\.')) });

async function uploadWithToken(name: string) {
  const token = await ui.page.evaluate(async () => (await (await fetch('/api/user/token')).json()).token);
  const form = new FormData();
  form.append('file', new Blob([`contents of ${name}`], { type: 'text/plain' }), name);
  const answer = await fetch(`${ui.runner.url}/api/upload`, {
    method: 'POST',
    headers: { authorization: token },
    body: form,
  });
  expect(answer.status).toBe(200);
}

/** Sets a file's tags in its edit dialog. */
async function tagFile(name: string, tags: string[]) {
  await ui.page.getByRole('button', { name: `Actions for ${name}` }).click();
  await ui.page.getByRole('menuitem', { name: 'Edit details' }).click();
  const edit = dialog(`Edit ${name}`);
  for (const tag of tags) {
    await edit.getByLabel('Tags', { exact: true }).click();
    await ui.page.getByRole('option', { name: tag, exact: true }).click();
  }
  await edit.getByRole('button', { name: 'Save' }).click();
  await edit.waitFor({ state: 'detached' });
}

test('create tags, tag files, see the chips, filter by a tag, rename, recolour and delete a tag', async () => {
  await ui.signIn();
  for (const name of ['alpha.txt', 'bravo.txt', 'charlie.txt']) await uploadWithToken(name);
  await ui.page.goto(`${ui.runner.url}/files?view=table`);
  await row('charlie.txt').waitFor();

  // The editor: two tags, one with a colour typed in.
  await ui.page.getByRole('button', { name: 'Tags', exact: true }).click();
  const editor = dialog('Tags');
  await editor.getByText('No tags yet.').waitFor();
  await editor.getByRole('textbox', { name: 'New tag' }).fill('Travel');
  await editor.getByRole('button', { name: 'Add' }).click();
  await editor.getByRole('textbox', { name: 'Name of Travel' }).waitFor();
  await editor.getByRole('textbox', { name: 'New tag' }).fill('Work');
  await editor.getByRole('textbox', { name: 'Colour', exact: true }).fill('#e03131');
  await editor.getByRole('button', { name: 'Add' }).click();
  await editor.getByRole('textbox', { name: 'Name of Work' }).waitFor();
  // A name the user has is refused with the API's words.
  await editor.getByRole('textbox', { name: 'New tag' }).fill('travel');
  await editor.getByRole('button', { name: 'Add' }).click();
  await editor.getByText('a tag with this name already exists').waitFor();
  await ui.a11y();
  await ui.shot('tags-editor-light');
  await ui.page.keyboard.press('Escape');
  await editor.waitFor({ state: 'detached' });

  await tagFile('alpha.txt', ['Travel', 'Work']);
  await tagFile('bravo.txt', ['Travel']);
  await row('alpha.txt').getByText('Work').waitFor();
  await row('bravo.txt').getByText('Travel').waitFor();
  expect(await row('charlie.txt').getByText('Travel').count()).toBe(0);
  await ui.a11y();
  await ui.shot('tags-table-light');

  // The filter: the tag's files only, paged as the listing.
  await ui.page.getByRole('combobox', { name: 'Tag', exact: true }).click();
  await ui.page.getByRole('option', { name: 'Travel' }).click();
  await ui.page.getByText('Files tagged “Travel”').waitFor();
  await row('charlie.txt').waitFor({ state: 'detached' });
  await row('alpha.txt').waitFor();
  await row('bravo.txt').waitFor();
  expect(new URL(ui.page.url()).searchParams.get('tag')).toMatch(/^[0-9a-z]{26}$/);

  // Dark, as a grid, with the detail view; then at phone width.
  await ui.page.emulateMedia({ colorScheme: 'dark' });
  const grid = new URL(ui.page.url());
  grid.searchParams.delete('view');
  await ui.page.goto(grid.toString());
  await ui.page.getByText('Files tagged “Travel”').waitFor();
  await ui.a11y();
  await ui.shot('tags-grid-dark');
  await ui.page.setViewportSize({ width: 390, height: 844 });
  await ui.a11y();
  await ui.shot('tags-grid-dark-phone');
  await ui.page.setViewportSize({ width: 1280, height: 800 });
  await ui.page.emulateMedia({ colorScheme: 'light' });
  await ui.page.goto(`${ui.runner.url}/files?view=table`);

  // Rename and recolour Work; delete Travel: its chips go, the files stay.
  await ui.page.getByRole('button', { name: 'Tags', exact: true }).click();
  await editor.getByRole('textbox', { name: 'Name of Work' }).fill('Office');
  await editor.getByRole('textbox', { name: 'Colour of Work' }).fill('#2f9e44');
  await editor.getByRole('button', { name: 'Save Work' }).click();
  await editor.getByRole('textbox', { name: 'Name of Office' }).waitFor();
  await editor.getByRole('button', { name: 'Delete Travel' }).click();
  await ui.page
    .getByRole('dialog', { name: 'Delete the tag “Travel”?' })
    .getByRole('button', { name: 'Delete tag' })
    .click();
  await editor.getByRole('textbox', { name: 'Name of Travel' }).waitFor({ state: 'detached' });
  await ui.page.keyboard.press('Escape');
  await row('alpha.txt').getByText('Office').waitFor();
  await row('bravo.txt').getByText('Travel').waitFor({ state: 'detached' });
  await row('charlie.txt').waitFor();
  await ui.shot('tags-after-delete-light');
}, 600_000);
