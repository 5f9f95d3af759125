import { Readable } from 'node:stream';

/**
 * Zipline 4.x's own HTTP API, read with a token (`Authorization: <token>`, as its clients send it).
 * Only reads: the import never writes to the instance it moves from.
 */
export interface ZiplineClient {
  base: string;
  json: <T>(path: string) => Promise<T>;
  /** A file's bytes from `/raw/<name>` (no view is counted), streamed; null when Zipline refuses or lacks them. */
  bytes: (name: string) => Promise<{ stream: Readable } | { refused: string }>;
}

export function ziplineClient(base: string, token: string): ZiplineClient {
  const root = base.replace(/\/+$/, '');
  return {
    base: root,
    async json<T>(path: string) {
      const response = await fetch(root + path, {
        headers: { authorization: token, accept: 'application/json' },
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`Zipline ${path}: ${response.status} ${text.slice(0, 200)}`);
      try {
        return JSON.parse(text) as T;
      } catch {
        throw new Error(`Zipline ${path}: not JSON (is ${root} a Zipline 4 instance?)`);
      }
    },
    async bytes(name: string) {
      const response = await fetch(`${root}/raw/${encodeURIComponent(name)}`, {
        headers: { authorization: token },
      });
      if (!response.ok || !response.body) {
        await response.body?.cancel();
        return { refused: `Zipline answered ${response.status} for /raw/${name}` };
      }
      return { stream: Readable.fromWeb(response.body as import('node:stream/web').ReadableStream) };
    },
  };
}
