import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { failureResponse } from '#shared/http/handler';
import type { HttpResult } from '#shared/http/response';
import { latencyMsSince, logger } from '#shared/log/logger';
import { dispatch as dispatchByRoute } from './dispatch.ts';
import { toApiGatewayEvent } from './event.ts';
import type { RequestsInFlight } from './in-flight.ts';
import type { StaticSite } from './static.ts';

/** API Gateway refuses payloads over 10 MB before any function runs; so does the runner. */
const MAX_PAYLOAD_BYTES = 10 * 1024 * 1024;

function readBody(request: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_PAYLOAD_BYTES) {
        resolve(undefined);
        request.resume();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

const tooLarge = JSON.stringify({ error: 'request body is too large', statusCode: 413 });

export interface LocalServerOptions {
  /** Where dashboard file requests are logged (API requests log through the handlers' logger). */
  log?: (line: string) => void;
  /** Answers the events; the route table's dispatcher unless the benchmark swaps in its baseline. */
  dispatch?: (event: APIGatewayProxyEventV2) => Promise<HttpResult>;
  /** The built dashboard, for the GET requests no API route claims (CloudFront's job in AWS). */
  site?: StaticSite;
  /** Where the API requests being answered are counted (the object events wait for them). */
  inFlight?: RequestsInFlight;
}

/** The local stand-in for API Gateway: each HTTP request becomes a payload-2.0 event. */
export function createLocalServer(options: LocalServerOptions = {}): Server {
  const log = options.log ?? ((line: string) => console.log(line));
  const dispatch = options.dispatch ?? dispatchByRoute;
  return createServer(async (request, response) => {
    const started = performance.now();
    if (options.site?.(request, response)) {
      log(
        `${request.method} ${request.url?.split('?')[0]} 200 ${(performance.now() - started).toFixed(1)}ms`,
      );
      return;
    }
    const body = await readBody(request);
    let status: number;
    if (body === undefined) {
      status = 413;
      response.writeHead(413, {
        'content-type': 'application/json; charset=utf-8',
        'access-control-allow-origin': '*',
      });
      response.end(tooLarge);
    } else {
      const event = toApiGatewayEvent({
        method: request.method ?? 'GET',
        url: request.url ?? '/',
        headers: request.headers,
        body,
        sourceIp: request.socket.remoteAddress ?? '127.0.0.1',
      });
      const answer = dispatch(event).catch((error: unknown) =>
        failureResponse(error, event.requestContext.requestId),
      );
      const result = await (options.inFlight?.track(answer) ?? answer);
      status = result.statusCode;
      const headers: Record<string, string | string[]> = { ...result.headers };
      if (result.cookies?.length) headers['set-cookie'] = result.cookies;
      response.writeHead(result.statusCode, headers);
      response.end(
        result.body === undefined
          ? undefined
          : Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8'),
      );
    }
    // A handler logged its own line; what API Gateway answers itself (413, CORS preflights) gets one here.
    if (body === undefined || request.method === 'OPTIONS') {
      const latencyMs = latencyMsSince(started);
      logger.info('request', { route: `${request.method} (API Gateway)`, status, latencyMs });
    }
  });
}
