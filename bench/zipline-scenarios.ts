import { randomBytes } from 'node:crypto';
import { multipart } from '../tests/support/multipart.ts';
import { PASSWORD, UPLOAD_BYTES } from './fixtures.ts';
import { type Scenario, scenario } from './scenario.ts';
import { viewerAddress } from './services.ts';

/**
 * Zipline 4.4's routes (issue 33) beside the ones they share code with: a partial upload of one chunk
 * (opened and finished in one request, as a 4.4 client sends a small file), the pending uploads' list
 * and an empty abandon, the files' password check, and `/u/` showing a view page.
 */
export function ziplineScenarios(
  uploader: { token: string },
  locked: { name: string },
  viewed: { name: string },
): Scenario[] {
  const oneChunk = () => {
    const { body, contentType } = multipart([
      { fileName: 'blob', type: 'application/octet-stream', content: randomBytes(UPLOAD_BYTES) },
    ]);
    return {
      token: uploader.token,
      raw: body,
      headers: {
        'content-type': contentType,
        'content-range': `bytes 0-${UPLOAD_BYTES}/${UPLOAD_BYTES}`,
        'x-zipline-p-filename': 'clip.mp4',
        'x-zipline-p-content-type': 'video/mp4',
        'x-zipline-p-content-length': String(UPLOAD_BYTES),
        'x-zipline-p-lastchunk': 'true',
      },
    };
  };
  return [
    scenario('POST /api/upload/partial (one chunk)', 'POST', '/api/upload/partial', 200, oneChunk),
    scenario('GET /api/user/files/incomplete', 'GET', '/api/user/files/incomplete', 200, () => ({
      token: uploader.token,
    })),
    scenario(
      'DELETE /api/user/files/incomplete (an unknown id)',
      'DELETE',
      '/api/user/files/incomplete',
      200,
      () => ({
        token: uploader.token,
        json: { id: ['0'.repeat(32)] },
      }),
    ),
    scenario(
      'POST /api/user/files/{id}/password',
      'POST',
      '/api/user/files/{id}/password',
      200,
      (index) => ({ json: { password: PASSWORD }, sourceIp: viewerAddress('zipline', index) }),
      { url: () => `/api/user/files/${encodeURIComponent(locked.name)}/password`, load: 'password' },
    ),
    scenario('GET /u/{name} (image page)', 'GET', '/u/{name}', 200, () => ({}), {
      url: () => `/u/${encodeURIComponent(viewed.name)}`,
    }),
  ];
}
