import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { SourceFile } from './source.ts';
import type { ZiplineClient } from './zipline-client.ts';

/**
 * Where a file's bytes come from: Zipline's local datasource folder (`--uploads`, the directory its
 * DATASOURCE_LOCAL_DIRECTORY names: one file per public name) or the instance's `/raw/<name>`.
 * Either way a stream, or the reason there is none (the report says it).
 */
export type Bytes = { stream: Readable } | { missing: string };

export type ByteSource = (file: SourceFile) => Promise<Bytes>;

export function uploadsFolder(directory: string): ByteSource {
  return async (file) => {
    // A name is a file in that folder, never a path out of it (an export file is input like any other).
    if (file.name.includes('/') || file.name.includes('\\') || file.name === '..' || file.name === '.') {
      return { missing: `the name ${JSON.stringify(file.name)} is not a file name` };
    }
    const path = join(directory, file.name);
    const found = await stat(path).catch(() => null);
    if (!found?.isFile()) return { missing: `${path} is not in the uploads folder` };
    if (found.size !== file.size)
      return { missing: `${path} has ${found.size} bytes, Zipline recorded ${file.size}` };
    return { stream: createReadStream(path) };
  };
}

export function instanceBytes(client: ZiplineClient): ByteSource {
  return async (file) => {
    if (file.password) {
      return {
        missing: 'password-protected: Zipline serves its bytes only with the password (use --uploads)',
      };
    }
    const answer = await client.bytes(file.name);
    return 'stream' in answer ? answer : { missing: answer.refused };
  };
}
