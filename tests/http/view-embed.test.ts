import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type DefaultTreeAdapterMap, parse } from 'parse5';
import { createLocalServer } from '../../infra/local/server.ts';
import { call } from '../support/client.ts';
import { upload } from '../support/files.ts';
import { PNG_1X1 } from '../support/pixels.ts';
import { signedInUser } from '../support/users.ts';

type Node = DefaultTreeAdapterMap['node'];
type Element = DefaultTreeAdapterMap['element'];

/** Discord's crawler announces itself so; nothing here depends on it, it only looks the part. */
const UNFURLER = 'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)';

let server: Server;
let origin: string;

beforeAll(async () => {
  server = createLocalServer({ log: () => {} });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const isElement = (node: Node): node is Element => 'tagName' in node;

function elements(node: Node): Element[] {
  const children = 'childNodes' in node ? node.childNodes : [];
  const own = isElement(node) ? [node] : [];
  return [...own, ...children.flatMap((child) => elements(child))];
}

const attribute = (element: Element, name: string) =>
  element.attrs.find((candidate) => candidate.name === name)?.value;

const textOf = (element: Element): string =>
  element.childNodes
    .map((child) => ('value' in child ? child.value : isElement(child) ? textOf(child) : ''))
    .join('');

/**
 * What a link unfurler reads: it fetches the page over HTTP and parses it with a spec HTML parser
 * (parse5, the tokenizer browsers implement), then takes `<meta property|name content>`, the title
 * and the oEmbed discovery link from the `<head>`. Entities come back decoded, as the unfurler sees them.
 */
async function unfurl(path: string) {
  const response = await fetch(`${origin}${path}`, { headers: { 'user-agent': UNFURLER } });
  const document = parse(await response.text());
  const all = elements(document);
  const head = all.find((element) => element.tagName === 'head') as Element;
  const meta = new Map<string, string[]>();
  for (const tag of elements(head).filter((element) => element.tagName === 'meta')) {
    const key = attribute(tag, 'property') ?? attribute(tag, 'name');
    const content = attribute(tag, 'content');
    if (key === undefined || content === undefined) continue;
    meta.set(key, [...(meta.get(key) ?? []), content]);
  }
  const oembed = elements(head).find(
    (element) => element.tagName === 'link' && attribute(element, 'type') === 'application/json+oembed',
  );
  return {
    status: response.status,
    all,
    head: elements(head),
    meta,
    /** The one value of a tag (a repeated tag fails the test). */
    one: (key: string) => {
      const values = meta.get(key) ?? [];
      expect(values).toHaveLength(1);
      return values[0] as string;
    },
    title: textOf(all.find((element) => element.tagName === 'title') as Element),
    oembed: oembed && attribute(oembed, 'href'),
  };
}

async function embedOwner(view: Record<string, unknown>) {
  const user = await signedInUser();
  const patch = await call('PATCH', '/api/user', {
    token: user.token,
    json: { view: { enabled: true, embed: true, ...view } },
  });
  expect(patch.status).toBe(200);
  return user;
}

const viewsOf = async (token: string, id: string) =>
  (await call('GET', `/api/user/files/${id}`, { token })).body.views as number;

test('an unfurler fetching an image page reads a titled, coloured large-image card with a working image and oEmbed', async () => {
  const user = await embedOwner({
    embedTitle: '{file.name} by {user.username}',
    embedDescription: '{file.size} {file.type}, {file.views} views',
    embedSiteName: 'Pictures of {user.username}',
    embedColor: '#ff8800',
  });
  const [file] = await upload(user.token, [{ fileName: 'cat.png', type: 'image/png', content: PNG_1X1 }]);
  const { id, name } = file as { id: string; name: string };

  const card = await unfurl(`/view/${name}`);
  expect(card.status).toBe(200);
  expect(card.one('og:title')).toBe(`${name} by ${user.username}`);
  expect(card.one('og:description')).toBe(`${PNG_1X1.length} B image/png, 1 views`);
  expect(card.one('og:site_name')).toBe(`Pictures of ${user.username}`);
  expect(card.one('og:url')).toBe(`${origin}/view/${name}`);
  expect(card.one('og:type')).toBe('website');
  expect(card.one('theme-color')).toBe('#ff8800');
  expect(card.one('twitter:card')).toBe('summary_large_image');
  expect(card.one('twitter:title')).toBe(`${name} by ${user.username}`);
  expect(card.one('og:image:type')).toBe('image/png');
  const image = card.one('og:image');
  expect(card.one('twitter:image')).toBe(image);
  // The original, through the service's own stable link (no view limit, no password here).
  expect(image).toMatch(new RegExp(`^${origin}/raw/${name}\\?embed=[\\w-]{22}$`));
  // The unfurler then fetches the image, now or a day later: the bytes, counting no second view.
  for (let fetchNumber = 0; fetchNumber < 2; fetchNumber++) {
    const fetched = await fetch(image, { headers: { 'user-agent': UNFURLER } });
    expect(fetched.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await fetched.arrayBuffer()).equals(PNG_1X1)).toBe(true);
  }
  expect(await viewsOf(user.token, id)).toBe(1);

  expect(card.oembed).toBe(`${origin}/api/oembed/${name}`);
  const oembed = await fetch(card.oembed as string, { headers: { 'user-agent': UNFURLER } });
  expect(oembed.status).toBe(200);
  expect(oembed.headers.get('content-type')).toMatch(/^application\/json/);
  expect(await oembed.json()).toEqual({
    version: '1.0',
    type: 'link',
    title: `${name} by ${user.username}`,
    provider_name: `Pictures of ${user.username}`,
    provider_url: origin,
  });
  expect(await viewsOf(user.token, id)).toBe(1);
});

test('video and other files: og:video with its type, a summary card; no tags at all with embeds off', async () => {
  const user = await embedOwner({});
  const [video, archive] = await upload(user.token, [
    { fileName: 'clip.mp4', type: 'video/mp4', content: Buffer.from('not really a video') },
    { fileName: 'bundle.zip', type: 'application/zip', content: Buffer.from('PK') },
  ]);
  const videoCard = await unfurl(`/view/${video?.name}`);
  expect(videoCard.one('og:type')).toBe('video.other');
  expect(videoCard.one('og:video:type')).toBe('video/mp4');
  expect(videoCard.one('og:video:secure_url')).toBe(videoCard.one('og:video'));
  expect(videoCard.one('twitter:card')).toBe('summary');
  expect(videoCard.one('og:title')).toBe(video?.name);
  expect(videoCard.meta.has('og:image')).toBe(false);
  expect(videoCard.meta.has('og:description')).toBe(false);
  expect(videoCard.meta.has('theme-color')).toBe(false);

  const archiveCard = await unfurl(`/view/${archive?.name}`);
  expect(archiveCard.one('twitter:card')).toBe('summary');
  expect([...archiveCard.meta.keys()].filter((key) => /^og:(image|video|audio)/.test(key))).toEqual([]);

  await call('PATCH', '/api/user', { token: user.token, json: { view: { embed: false } } });
  const plain = await unfurl(`/view/${video?.name}`);
  expect(plain.status).toBe(200);
  expect([...plain.meta.keys()].filter((key) => /^(og:|twitter:)|^theme-color$/.test(key))).toEqual([]);
  expect(plain.oembed).toBeUndefined();
  const oembedOff = await call('GET', `/api/oembed/${video?.name}`);
  const unknown = await call('GET', '/api/oembed/no-such-file.png');
  const raw = await call('GET', '/raw/no-such-file.png');
  expect([oembedOff.status, unknown.status]).toEqual([404, 404]);
  expect(oembedOff.text).toBe(raw.text);
  expect(unknown.text).toBe(raw.text);
});

test('a text file is described by its first lines; a description the owner set wins; oEmbed is as for any file', async () => {
  const user = await embedOwner({});
  const source = '\n# Notes <b>\nline 2\nline 3\nline 4\nline 5\nline 6 is not shown\n';
  const [note, code] = await upload(user.token, [
    { fileName: 'notes.md', type: 'text/markdown', content: Buffer.from(source) },
    { fileName: 'short.py', type: 'text/plain', content: Buffer.from('print("hi")\n') },
  ]);
  const card = await unfurl(`/view/${note?.name}`);
  expect(card.one('og:description')).toBe('# Notes <b>\nline 2\nline 3\nline 4\nline 5…');
  expect(card.one('twitter:description')).toBe(card.one('og:description'));
  expect((await unfurl(`/view/${code?.name}`)).one('og:description')).toBe('print("hi")');
  const oembed = await call('GET', `/api/oembed/${note?.name}`);
  expect(oembed.body).toEqual({
    version: '1.0',
    type: 'link',
    title: note?.name,
    provider_url: 'https://localhost',
  });

  await call('PATCH', '/api/user', {
    token: user.token,
    json: { view: { embedDescription: 'By {user.username}' } },
  });
  expect((await unfurl(`/view/${note?.name}`)).one('og:description')).toBe(`By ${user.username}`);
});

test('the oEmbed answer counts no view and ends with the file: maxViews: 1 used up, it is the 404', async () => {
  const user = await embedOwner({ embedTitle: 'once' });
  const [file] = await upload(user.token, [{ fileName: 'once.png', type: 'image/png', content: PNG_1X1 }], {
    'x-zipline-max-views': '1',
  });
  const oembedPath = `/api/oembed/${file?.name}`;
  for (let look = 0; look < 3; look += 1) expect((await call('GET', oembedPath)).body.title).toBe('once');
  expect(await viewsOf(user.token, file?.id as string)).toBe(0);
  expect((await call('GET', `/view/${file?.name}`)).status).toBe(200);
  expect((await call('GET', oembedPath)).status).toBe(404);
  expect((await call('GET', `/view/${file?.name}`)).status).toBe(404);
});

/** Script, attribute-breaking (both quote styles, closing tags) and entity payloads. */
const PAYLOADS = [
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  "' onmouseover='alert(1)' x='",
  '</title></head><body><script>alert(1)</script>',
  '&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot; &#39; &#x3C;b&#x3E;',
  '"}; alert(1); {"\\u003c\u2028',
];

/**
 * A name with what the name rule lets through (`<>"'#%?` and backticks become `_`; a quote would end the multipart header's filename): entities, a
 * template variable that must stay text, an ampersand-less entity.
 */
const NAME_PAYLOAD = "&amp;lt;b&gt; {user.username} &copy x <s>'q'<s>`.png";

test.each(PAYLOADS)('every setting and the file name are escaped for their context: %s', async (payload) => {
  const user = await embedOwner({
    embedTitle: `T ${payload} {file.originalName}`,
    embedDescription: `D ${payload} {file.name}`,
    embedSiteName: `S ${payload}`,
    content: `C ${payload} {user.username}`,
    showMimetype: true,
  });
  // The colour is the one setting that is not text: anything but #rrggbb is refused and stores nothing.
  const colour = await call('PATCH', '/api/user', {
    token: user.token,
    json: { view: { embedColor: `#fff" ${payload}` } },
  });
  expect(colour.status).toBe(400);
  const [uploaded] = await upload(
    user.token,
    [{ fileName: NAME_PAYLOAD, type: 'image/png', content: PNG_1X1 }],
    { 'x-zipline-original-name': 'true' },
  );
  const file = (await call('GET', `/api/user/files/${uploaded?.id}`, { token: user.token })).body as {
    name: string;
    originalName: string;
  };
  expect(file.originalName).toBe('&amp;lt;b&gt; {user.username} &copy x _s__q__s__.png');

  const card = await unfurl(`/view/${file.name}`);
  expect(card.status).toBe(200);
  // Every text reads back exactly as written, variables filled once (a name's `{user.username}`
  // stays text), entities the user typed still entities.
  expect(card.title).toBe(file.originalName);
  expect(card.one('og:title')).toBe(`T ${payload} ${file.originalName}`);
  expect(card.one('twitter:title')).toBe(`T ${payload} ${file.originalName}`);
  expect(card.one('og:image:alt')).toBe(`T ${payload} ${file.originalName}`);
  expect(card.one('og:description')).toBe(`D ${payload} ${file.name}`);
  expect(card.one('twitter:description')).toBe(`D ${payload} ${file.name}`);
  expect(card.one('og:site_name')).toBe(`S ${payload}`);
  expect(card.meta.has('theme-color')).toBe(false);
  const byTag = (tag: string) => card.all.filter((element) => element.tagName === tag);
  expect(byTag('h1').map(textOf)).toEqual([file.originalName]);
  const content = card.all.find((element) => attribute(element, 'class') === 'content') as Element;
  expect(textOf(content)).toBe(`C ${payload} ${user.username}`);
  expect(byTag('img').map((element) => attribute(element, 'alt'))).toEqual([file.originalName]);

  // Nothing the payloads carry became markup: no script, no handler attribute, no extra element.
  expect(byTag('script')).toEqual([]);
  expect(card.all.flatMap((element) => element.attrs.filter((attr) => /^on/i.test(attr.name)))).toEqual([]);
  expect(
    card.head
      .map((element) => element.tagName)
      .filter((tag) => !['head', 'meta', 'title', 'style', 'link'].includes(tag)),
  ).toEqual([]);
  expect(byTag('img')).toHaveLength(1);

  const oembed = await fetch(card.oembed as string);
  expect(oembed.headers.get('content-type')).toMatch(/^application\/json/);
  expect(oembed.headers.get('x-content-type-options')).toBe('nosniff');
  const answer = (await oembed.json()) as Record<string, unknown>;
  expect(answer.title).toBe(`T ${payload} ${file.originalName}`);
  expect(answer.provider_name).toBe(`S ${payload}`);
});
