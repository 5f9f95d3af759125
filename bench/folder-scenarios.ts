import { call } from '../tests/support/client.ts';
import { uploadRequest } from '../tests/support/files.ts';
import type { PartSpec } from '../tests/support/multipart.ts';
import { type Scenario, scenario } from './scenario.ts';

/** The files a bulk request names: Zipline's dashboard selects a page of them. */
const BULK_FILES = 24;

async function newFolder(token: string): Promise<string> {
  const created = await call('POST', '/api/user/folders', { token, json: { name: 'Benchmarked' } });
  if (created.status !== 200) throw new Error(`fixture folder failed: ${created.text}`);
  return created.body.id as string;
}

/** Uploads fixture files (the tests' `upload` asserts with jest's `expect`, which a bench run lacks). */
async function upload(token: string, parts: PartSpec[]): Promise<{ id: string }[]> {
  const response = await uploadRequest(token, parts);
  if (response.status !== 200) throw new Error(`fixture upload failed: ${response.text}`);
  return response.body.files as { id: string }[];
}

/**
 * Folders and bulk actions (issue 35). The folder routes read and change one folder; the bulk
 * routes favourite and delete a page of files (24), each file its own transaction. Deletions each
 * get a folder or files of their own, made as untimed setup.
 */
export async function folderScenarios(user: { token: string }): Promise<Scenario[]> {
  const folder = await newFolder(user.token);
  const files = await upload(
    user.token,
    Array.from({ length: BULK_FILES }, (_, index) => ({ fileName: `bulk-${index}.txt`, content: 'bulk' })),
  );
  const ids = files.map((file) => file.id);
  const fresh = new Map<number, string>();
  const freshFolder = async (index: number) => {
    fresh.set(index, await newFolder(user.token));
    return { token: user.token, json: { delete: 'folder' } };
  };
  const freshFiles = async () => {
    const made = await upload(
      user.token,
      Array.from({ length: BULK_FILES }, (_, index) => ({ fileName: `gone-${index}.txt`, content: 'gone' })),
    );
    return { token: user.token, json: { files: made.map((file) => file.id) } };
  };
  const folderUrl = () => `/api/user/folders/${folder}`;
  return [
    // The public folder page's function (a folder is private until shared: its page is a 404).
    scenario('GET /folder/{id} (private, 404)', 'GET', '/folder/{id}', 404, () => ({}), {
      url: () => `/folder/${folder}`,
    }),
    scenario('GET /api/user/folders', 'GET', '/api/user/folders', 200, () => ({ token: user.token })),
    scenario('POST /api/user/folders', 'POST', '/api/user/folders', 200, () => ({
      token: user.token,
      json: { name: 'Created' },
    })),
    scenario(
      'GET /api/user/folders/{id}',
      'GET',
      '/api/user/folders/{id}',
      200,
      () => ({ token: user.token }),
      {
        url: folderUrl,
      },
    ),
    scenario(
      'PUT /api/user/folders/{id} (a file in)',
      'PUT',
      '/api/user/folders/{id}',
      200,
      (index) => ({ token: user.token, json: { id: ids[index % ids.length] } }),
      { url: folderUrl },
    ),
    scenario(
      'PATCH /api/user/folders/{id}',
      'PATCH',
      '/api/user/folders/{id}',
      200,
      (index) => ({ token: user.token, json: { name: `Renamed ${index}` } }),
      { url: folderUrl },
    ),
    scenario('DELETE /api/user/folders/{id} (empty)', 'DELETE', '/api/user/folders/{id}', 200, freshFolder, {
      url: (index) => `/api/user/folders/${fresh.get(index)}`,
    }),
    scenario(
      `PATCH /api/user/files/transaction (${BULK_FILES} favourites)`,
      'PATCH',
      '/api/user/files/transaction',
      200,
      (index) => ({ token: user.token, json: { files: ids, favorite: index % 2 === 0 } }),
    ),
    scenario(
      `DELETE /api/user/files/transaction (${BULK_FILES} files)`,
      'DELETE',
      '/api/user/files/transaction',
      200,
      freshFiles,
    ),
  ];
}
