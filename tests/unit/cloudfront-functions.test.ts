import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../infra/constructs/service-function.ts';

// The viewer-request functions the distribution runs (cloudfront-js-2.0: plain JavaScript that
// defines `handler`), evaluated here as CloudFront evaluates them.
interface CloudFrontRequest {
  uri: string;
  headers: Record<string, { value: string } | undefined>;
}
type Handler = (event: { request: CloudFrontRequest }) => CloudFrontRequest;

function load(file: string): Handler {
  const code = readFileSync(join(PROJECT_ROOT, 'infra', 'cloudfront', file), 'utf8');
  return new Function(`${code}\nreturn handler;`)() as Handler;
}

describe('SPA routes get index.html', () => {
  const handler = load('spa-index.js');
  const uriOf = (uri: string) => handler({ request: { uri, headers: {} } }).uri;

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
        headers: { host: { value: 'd111.cloudfront.net' }, 'x-viewer-host': { value: 'evil.example' } },
      },
    });
    expect(request.headers['x-viewer-host']).toEqual({ value: 'd111.cloudfront.net' });
    expect(request.headers.host).toEqual({ value: 'd111.cloudfront.net' });
  });

  test('without a host nothing the viewer sent survives', () => {
    const request = handler({
      request: { uri: '/api/user', headers: { 'x-viewer-host': { value: 'evil.example' } } },
    });
    expect(request.headers['x-viewer-host']).toBeUndefined();
  });
});
