import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type {
  DynamoDBClient,
  GetItemInput,
  GetItemOutput,
  QueryInput,
  QueryOutput,
} from '@aws-sdk/client-dynamodb';
import { SignatureV4 } from '@smithy/signature-v4';
import type { HttpRequest } from '@smithy/types';
import { retry } from '#shared/db/contention/retry';
import { TRANSIENT_AWS_ERRORS } from '#shared/db/contention/transient-errors';

/**
 * GetItem, the read every authenticated request makes, and Query, the file listing's reads, sent
 * without the SDK's per-request machinery. The SDK spends about 0.35 ms of CPU on each call beyond
 * the HTTP exchange itself (middleware stack, endpoint rules, schema serde): more than the rest of a
 * `GET /api/user` (docs/performance.md). This reader takes from the SDK client what must not differ —
 * its credential provider, region, endpoint rules, attempt count and SigV4 signer — and sends the
 * JSON request DynamoDB's wire protocol defines, over a keep-alive connection.
 */

/** One attempt on the wire. */
export type ItemReadAttempt = (input: GetItemInput) => Promise<GetItemOutput>;
/** Wraps each attempt, retries included, as SDK middleware below the retry step does. */
export type ItemReadInterceptor = (next: ItemReadAttempt) => ItemReadAttempt;
/** The same for queries. */
export type QueryAttempt = (input: QueryInput) => Promise<QueryOutput>;
export type QueryInterceptor = (next: QueryAttempt) => QueryAttempt;

export interface ItemReader {
  read(input: GetItemInput): Promise<GetItemOutput>;
  query(input: QueryInput): Promise<QueryOutput>;
  intercept(interceptor: ItemReadInterceptor): void;
  interceptQueries(interceptor: QueryInterceptor): void;
}

/** An error DynamoDB answered with, named as the SDK names it (`ProvisionedThroughputExceededException`…). */
export class DynamoDbError extends Error {
  readonly $metadata: { httpStatusCode: number };
  constructor(name: string, message: string, httpStatusCode: number) {
    super(message);
    this.name = name;
    this.$metadata = { httpStatusCode };
  }
}

/** What the SDK's standard strategy tries again: the transient errors, and its name for a timeout at the service. */
const RETRYABLE_NAMES = new Set([...TRANSIENT_AWS_ERRORS, 'RequestTimeoutException']);
/** A kept-alive connection the server closed meanwhile (or a Lambda sandbox thawed with a dead one). */
const RETRYABLE_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT']);

function isRetryable(error: unknown): boolean {
  // Duck-typed: Node's network errors may come from another realm than this module's `Error`.
  if (typeof error !== 'object' || error === null) return false;
  const { name, code, $metadata } = error as { name?: string; code?: string } & Partial<DynamoDbError>;
  const status = $metadata?.httpStatusCode ?? 0;
  return RETRYABLE_NAMES.has(name ?? '') || status >= 500 || RETRYABLE_CODES.has(code ?? '');
}

/** The SDK's pause before a retry grows from 100 ms; the jitter spreads competing callers. */
const RETRY_BASE_MS = 100;
/** A read answers in milliseconds; a connection silent this long is dead and the attempt is retried. */
const SOCKET_TIMEOUT_MS = 5_000;

/**
 * DynamoDB's JSON carries binary values (`B`, `BS`) as base64 strings; the SDK hands them out as
 * bytes, and so does this. An attribute named `B` holds an object, never a string, so the two
 * cannot be confused. Only an answer that mentions one is parsed with the reviver, which costs a
 * call per value (a page of 9 file items: about a tenth of the runner's busy time under a listing load).
 */
function reviveBinary(key: string, value: unknown): unknown {
  if (key === 'B' && typeof value === 'string') return Buffer.from(value, 'base64');
  if (key === 'BS' && Array.isArray(value) && value.every((each) => typeof each === 'string')) {
    return value.map((each: string) => Buffer.from(each, 'base64'));
  }
  return value;
}

/** A binary value's type tag; `"BOOL":` (every file item has one) is not, and needs no reviver. */
const BINARY_TAG = /"BS?":/;

const parseWire = (body: string): Record<string, unknown> =>
  BINARY_TAG.test(body) ? JSON.parse(body, reviveBinary) : JSON.parse(body);

function bodyOf(response: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    response.on('data', (chunk: Buffer) => chunks.push(chunk));
    response.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    response.on('error', reject);
  });
}

function answer(status: number, body: string): Record<string, unknown> {
  const parsed = body ? parseWire(body) : {};
  if (status === 200) return parsed;
  const type = String(parsed.__type ?? `HTTP${status}`);
  const message = String(parsed.message ?? parsed.Message ?? '');
  throw new DynamoDbError(type.slice(type.lastIndexOf('#') + 1), message, status);
}

interface Wire {
  endpoint: URL;
  signer: SignatureV4;
  attempts: number;
}

/** Everything the SDK client decides once, read from its resolved configuration. */
async function wireOf(client: DynamoDBClient): Promise<Wire> {
  const { config } = client;
  const region = await config.region();
  // The SDK's precedence: an endpoint given to the client, then one configured for the service in
  // the environment (`AWS_ENDPOINT_URL_DYNAMODB`), then its endpoint rules for the region.
  const given = await config.endpoint?.();
  const configured = given
    ? `${given.protocol}//${given.hostname}${given.port ? `:${given.port}` : ''}${given.path}`
    : await config.serviceConfiguredEndpoint?.();
  const endpoint = config.endpointProvider({
    Region: region,
    UseFIPS: await config.useFipsEndpoint(),
    UseDualStack: await config.useDualstackEndpoint(),
    ...(configured ? { Endpoint: configured } : {}),
  }).url;
  const signer = new SignatureV4({
    service: 'dynamodb',
    region,
    credentials: config.credentials,
    sha256: config.sha256,
    applyChecksum: false,
  });
  return { endpoint, signer, attempts: await config.maxAttempts() };
}

export function createItemReader(client: DynamoDBClient): ItemReader {
  let resolved: Promise<Wire> | undefined;
  // Resolved at the first read, not at import: the credential provider may need the network.
  const wire = () => {
    resolved ??= wireOf(client);
    return resolved;
  };
  const agentOptions = { keepAlive: true, maxSockets: 50 };
  const agents = { http: new HttpAgent(agentOptions), https: new HttpsAgent(agentOptions) };

  const send = async (operation: 'GetItem' | 'Query', input: object): Promise<Record<string, unknown>> => {
    const { endpoint, signer } = await wire();
    const body = JSON.stringify(input);
    const unsigned: HttpRequest = {
      method: 'POST',
      protocol: endpoint.protocol,
      hostname: endpoint.hostname,
      ...(endpoint.port ? { port: Number(endpoint.port) } : {}),
      path: endpoint.pathname,
      query: {},
      headers: {
        host: endpoint.host,
        'content-type': 'application/x-amz-json-1.0',
        'content-length': String(Buffer.byteLength(body)),
        'x-amz-target': `DynamoDB_20120810.${operation}`,
      },
      body,
    };
    const { headers } = await signer.sign(unsigned);
    const secure = endpoint.protocol === 'https:';
    const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const request = (secure ? httpsRequest : httpRequest)(
        {
          method: 'POST',
          hostname: endpoint.hostname,
          port: endpoint.port || undefined,
          path: endpoint.pathname,
          headers,
          agent: secure ? agents.https : agents.http,
          timeout: SOCKET_TIMEOUT_MS,
        },
        (response) =>
          bodyOf(response).then((text) => resolve({ status: response.statusCode ?? 0, text }), reject),
      );
      request.on('timeout', () =>
        request.destroy(
          Object.assign(new Error('DynamoDB did not answer in time'), { name: 'TimeoutError' }),
        ),
      );
      request.on('error', reject);
      request.end(body);
    });
    return answer(status, text);
  };

  let attempt: ItemReadAttempt = (input) => send('GetItem', input);
  let queryAttempt: QueryAttempt = (input) => send('Query', input);
  const retried = async <T>(call: () => Promise<T>): Promise<T> => {
    const { attempts } = await wire();
    return retry({ attempts, baseMs: RETRY_BASE_MS, retryable: isRetryable }, call);
  };
  return {
    intercept(interceptor) {
      attempt = interceptor(attempt);
    },
    interceptQueries(interceptor) {
      queryAttempt = interceptor(queryAttempt);
    },
    read: (input) => retried(() => attempt(input)),
    query: (input) => retried(() => queryAttempt(input)),
  };
}
