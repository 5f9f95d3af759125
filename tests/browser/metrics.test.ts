import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { signOut } from '../support/dashboard.ts';
import { ADMIN, dashboardFixture } from './fixture.ts';

/**
 * The Metrics page in Chromium against `npm start` (issue 36): the runner's schedule runs the daily
 * job every few seconds, so today's figures follow the uploads; a month of earlier days is written
 * into the runner's table as the job would have left them. Administrators see the page in the
 * navigation, a USER neither the entry nor the figures. axe in light, dark and at phone width.
 */
const ui = dashboardFixture('metrics', { screenshots: 'METRICS_SCREENSHOTS' });

const nav = () => ui.page.getByRole('navigation');

/** Thirty earlier days of a growing instance, straight into the runner's table. */
async function writeEarlierDays() {
  const documents = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: ui.runner.dynamoEndpoint,
      region: 'local',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
  );
  for (let ago = 30; ago >= 1; ago--) {
    const taken = new Date(Date.now() - ago * 86_400_000).toISOString();
    const grown = 31 - ago;
    await documents.send(
      new PutCommand({
        TableName: 'file-service',
        Item: {
          pk: 'METRICS',
          sk: `DAY#${taken.slice(0, 10)}`,
          id: taken.slice(0, 10),
          createdAt: taken,
          updatedAt: taken,
          data: {
            users: 1,
            files: Math.floor((grown * 4) / 31),
            fileViews: grown,
            urls: 0,
            urlViews: 0,
            storage: grown * 1_350,
            filesUsers: [],
            urlsUsers: [],
            types: [],
          },
        },
      }),
    );
  }
  documents.destroy();
}

/** Today's item once the runner's job has counted `files` files (it runs every few seconds). */
async function figuresCounting(token: string, files: number) {
  for (;;) {
    const answer = await fetch(`${ui.runner.url}/api/stats`, { headers: { authorization: token } });
    const days = (await answer.json()) as { data: { files: number } }[];
    if (days[0]?.data.files === files) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

test('an administrator reads the figures and charts; a USER has no Metrics page', async () => {
  await ui.signIn();
  await writeEarlierDays();
  const token = await ui.page.evaluate(
    async () => (await (await fetch('/api/user/token')).json()).token as string,
  );
  const uploads: [string, string, string][] = [
    ['photo.png', 'image/png', 'p'.repeat(40_000)],
    ['notes.txt', 'text/plain', 'n'.repeat(2_000)],
    ['todo.txt', 'text/plain', 't'.repeat(500)],
    ['data.json', 'application/json', '{"a": 1}'],
  ];
  for (const [name, type, content] of uploads) {
    const form = new FormData();
    form.append('file', new Blob([content], { type }), name);
    const answer = await fetch(`${ui.runner.url}/api/upload`, {
      method: 'POST',
      headers: { authorization: token },
      body: form,
    });
    expect(answer.status).toBe(200);
  }
  await figuresCounting(token, uploads.length);

  await nav().getByRole('link', { name: 'Metrics' }).click();
  await ui.page.getByRole('heading', { name: 'Metrics' }).waitFor();
  await ui.page.getByText(/^Figures of .*, taken once a day\.$/).waitFor();
  const card = (label: string) => ui.page.locator('.mantine-Card-root').filter({ hasText: label }).first();
  expect(await card('Storage').textContent()).toContain('42 KB');
  await ui.page.getByRole('figure', { name: 'Files and users over time' }).locator('svg').first().waitFor();
  await ui.page.getByRole('figure', { name: 'Storage over time' }).waitFor();
  const types = ui.page.getByRole('figure', { name: 'Files by type' });
  await types.getByTitle('text/plain').waitFor();
  const top = ui.page.getByRole('figure', { name: 'Top users' });
  await top.getByRole('cell', { name: ADMIN.username }).waitFor();
  await ui.a11y();
  await ui.shot('metrics-light');

  // A shorter range: the week's days only (today and six before it).
  await ui.page.getByText('7 days', { exact: true }).click();
  await ui.page.getByRole('figure', { name: 'Storage over time' }).waitFor();

  await ui.page.emulateMedia({ colorScheme: 'dark' });
  await ui.page.reload();
  await ui.page.getByRole('figure', { name: 'Top users' }).waitFor();
  await ui.a11y();
  await ui.shot('metrics-dark');
  await ui.page.setViewportSize({ width: 390, height: 844 });
  await ui.page.getByRole('figure', { name: 'Files by type' }).waitFor();
  await ui.a11y();
  await ui.shot('metrics-phone');
  await ui.page.setViewportSize({ width: 1280, height: 800 });
  await ui.page.emulateMedia({ colorScheme: 'light' });

  // A USER: no Metrics entry, and the route answers 403.
  const created = await fetch(`${ui.runner.url}/api/users`, {
    method: 'POST',
    headers: { authorization: token, 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'casey', password: 'casey password' }),
  });
  expect(created.status).toBe(200);
  await signOut(ui, ADMIN.username);
  await ui.signIn('casey', 'casey password');
  await nav().getByRole('link', { name: 'Files' }).waitFor();
  expect(await nav().getByRole('link', { name: 'Metrics' }).count()).toBe(0);
  const refused = await ui.page.evaluate(async () => (await fetch('/api/stats')).status);
  expect(refused).toBe(403);
}, 300_000);
