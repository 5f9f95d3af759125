import { cloudfrontCode } from '../../infra/cloudfront-code.ts';

// The viewer-request functions the distribution runs (cloudfront-js-2.0: plain JavaScript that
// defines `handler`), with the prelude the stack puts in front, evaluated as CloudFront evaluates them.
interface CloudFrontRequest {
  uri: string;
  headers: Record<string, { value: string } | undefined>;
  querystring?: Record<string, { value: string; multiValue?: { value: string }[] }>;
}
interface CloudFrontResponse {
  statusCode: number;
  headers: Record<string, { value: string }>;
}
type Handler = (event: {
  request: CloudFrontRequest;
  viewer?: { ip: string };
}) => CloudFrontRequest & CloudFrontResponse;

function load(file: string, canonicalHost?: string): Handler {
  return new Function(`${cloudfrontCode(file, canonicalHost)}\nreturn handler;`)() as Handler;
}
const VIEWER = { ip: '198.51.100.23' };

describe('SPA routes get index.html', () => {
  const handler = load('spa-index.js');
  const uriOf = (uri: string) =>
    handler({ request: { uri, headers: { host: { value: 'd1.example' } } } }).uri;

  test.each(['/', '/files', '/settings/', '/users/01JZZZZZZZZZZZZZZZZZZZZZZZ'])('%s → /index.html', (uri) => {
    expect(uriOf(uri)).toBe('/index.html');
  });

  test.each(['/index.html', '/assets/index-Abc123.js', '/favicon.svg', '/assets/app.css'])(
    '%s is a file, served as is',
    (uri) => {
      expect(uriOf(uri)).toBe(uri);
    },
  );
});

describe('the viewer host reaches the API as x-viewer-host', () => {
  const handler = load('viewer-host.js');

  test('the viewer host is copied, whatever the viewer claimed in the header', () => {
    const request = handler({
      request: {
        uri: '/api/user',
        headers: {
          host: { value: 'd111.cloudfront.net' },
          'x-viewer-host': { value: 'evil.example' },
          'x-viewer-address': { value: '203.0.113.66' },
        },
      },
      viewer: VIEWER,
    });
    expect(request.headers['x-viewer-host']).toEqual({ value: 'd111.cloudfront.net' });
    expect(request.headers['x-viewer-address']).toEqual({ value: VIEWER.ip });
    expect(request.headers.host).toEqual({ value: 'd111.cloudfront.net' });
  });

  test('without a host nothing the viewer sent survives', () => {
    const request = handler({
      request: { uri: '/api/user', headers: { 'x-viewer-host': { value: 'evil.example' } } },
      viewer: VIEWER,
    });
    expect(request.headers['x-viewer-host']).toBeUndefined();
  });
});

describe("with a custom domain, the distribution's other names redirect to it", () => {
  const DOMAIN = 'files.example.com';
  const own = { host: { value: 'd111.cloudfront.net' } };

  test.each([
    ['spa-index.js', '/files'],
    ['viewer-host.js', '/api/upload'],
    ['canonical-only.js', '/assets/index-Abc123.js'],
  ])('%s: %s on the cloudfront.net name → 308 to the same path on the domain', (file, uri) => {
    const answer = load(
      file,
      DOMAIN,
    )({
      request: {
        uri,
        headers: own,
        querystring: {
          pw: { value: 'a%20b' },
          tag: { value: 'x', multiValue: [{ value: 'x' }, { value: 'y' }] },
        },
      },
      viewer: VIEWER,
    });
    expect(answer.statusCode).toBe(308);
    expect(answer.headers.location).toEqual({ value: `https://${DOMAIN}${uri}?pw=a%20b&tag=x&tag=y` });
  });

  test('the domain itself (in any case) is served, not redirected', () => {
    const api = load(
      'viewer-host.js',
      DOMAIN,
    )({
      request: { uri: '/api/user', headers: { host: { value: 'Files.Example.com' } } },
      viewer: VIEWER,
    });
    expect(api.statusCode).toBeUndefined();
    expect(api.headers['x-viewer-host']).toEqual({ value: 'Files.Example.com' });
    const page = load(
      'spa-index.js',
      DOMAIN,
    )({ request: { uri: '/files', headers: { host: { value: DOMAIN } } } });
    expect(page.uri).toBe('/index.html');
  });

  test('without a custom domain nothing redirects', () => {
    const page = load('spa-index.js')({ request: { uri: '/files', headers: own } });
    expect(page.statusCode).toBeUndefined();
    expect(page.uri).toBe('/index.html');
  });
});
