import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** What the receiver answers to a request on a path: a status, and headers (a redirect's location). */
export type Answer = { status: number; headers?: Record<string, string>; body?: string };

/**
 * A real HTTP server on 127.0.0.1 standing for a webhook's receiver (Discord, a user's endpoint): it
 * keeps every request and answers 204 unless `answers` has answers queued for the path.
 */
export async function startReceiver() {
  const received: Received[] = [];
  const answers = new Map<string, Answer[]>();
  const waiting: { path: string; resolve: () => void }[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      received.push({ path, headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      const answer = answers.get(path)?.shift() ?? { status: 204 };
      response.writeHead(answer.status, answer.headers ?? {});
      response.end(answer.body);
      for (const wait of waiting.filter((entry) => entry.path === path)) wait.resolve();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    received,
    on: (path: string) => received.filter((entry) => entry.path === path),
    answer: (path: string, ...queued: Answer[]) => answers.set(path, queued),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
