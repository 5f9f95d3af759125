import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { ForbiddenTarget, guardedLookup, webhookUrlProblem } from '#shared/webhooks/addresses';

/** The longest a call may take, connection to last byte read: a slow receiver holds nothing up. */
export const WEBHOOK_TIMEOUT_MS = 5000;

/** How much of a receiver's answer is read (for the log); the rest is dropped unread. */
export const RESPONSE_BYTES_READ = 1024;

export interface PostOutcome {
  status: number;
  /** The answer's first bytes at most (a receiver's error message, for the log). */
  excerpt: string;
}

export interface PostOptions {
  allowLoopback: boolean;
  timeoutMs?: number;
}

/**
 * POSTs a JSON body to a webhook URL: the URL checked (webhookUrlProblem), its name resolved by the
 * guarded lookup and connected to at the address checked (an IP literal is checked here, since Node
 * skips the lookup for one), a redirect answered as it stands (never followed), at most
 * `RESPONSE_BYTES_READ` of the answer read, the whole call abandoned after `WEBHOOK_TIMEOUT_MS`.
 * Throws ForbiddenTarget for a URL or address it refuses, any other error for a failed call.
 */
export function postJson(
  target: string,
  body: string,
  headers: Record<string, string>,
  { allowLoopback, timeoutMs = WEBHOOK_TIMEOUT_MS }: PostOptions,
): Promise<PostOutcome> {
  const problem = webhookUrlProblem(target, allowLoopback);
  if (problem) return Promise.reject(new ForbiddenTarget(`the URL ${problem}`));
  const url = new URL(target);
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const call = send(url, {
      method: 'POST',
      agent: false,
      lookup: guardedLookup(allowLoopback),
      headers: {
        ...headers,
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
        'user-agent': 'file-service-webhooks/1',
      },
    });
    const deadline = setTimeout(() => call.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    call.on('error', (error) => {
      clearTimeout(deadline);
      reject(error);
    });
    call.on('response', (response) => {
      const chunks: Buffer[] = [];
      let read = 0;
      const finish = () => {
        clearTimeout(deadline);
        const excerpt = Buffer.concat(chunks).subarray(0, RESPONSE_BYTES_READ).toString('utf8');
        resolve({ status: response.statusCode ?? 0, excerpt });
      };
      response.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        read += chunk.length;
        if (read >= RESPONSE_BYTES_READ) {
          response.removeAllListeners('data');
          finish();
          call.destroy();
        }
      });
      response.on('end', finish);
      response.on('error', () => finish());
    });
    call.end(body);
  });
}
