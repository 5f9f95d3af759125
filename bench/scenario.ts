import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { routes } from '#shared/routes/table';
import { type CallOptions, requestEvent } from '../tests/support/client.ts';

/** What the benchmark measures per route: one request builder, as a handler event or over HTTP. */

export type RequestLoad = 'standard' | 'password' | 'heavySetup';

/** One request as both paths send it: a payload-2.0 event to the handler, or HTTP to the runner. */
export interface BenchRequest {
  method: string;
  url: string;
  options: CallOptions;
}

export interface Scenario {
  /** `METHOD /path` plus how it authenticates when that matters. */
  name: string;
  /** Handler module under `functions/`, as the route table names it. */
  handler: string;
  /** Answer every request must get (anything else fails the benchmark). */
  status: number;
  /**
   * How many requests measure it: `password` hashes or verifies a bcrypt password per request;
   * `heavySetup` needs an upload as untimed setup before each request (fewer, to keep the run short).
   */
  load: RequestLoad;
  /** Builds request number `index`; untimed setup (a fresh session or user) happens here. */
  request(index: number): Promise<BenchRequest>;
  event(index: number): Promise<APIGatewayProxyEventV2>;
}

export function scenario(
  name: string,
  method: string,
  path: string,
  status: number,
  build: (index: number) => CallOptions | Promise<CallOptions>,
  extra: { url?: (index: number) => string; load?: RequestLoad } = {},
): Scenario {
  const url = extra.url ?? (() => path);
  const route = routes.find((candidate) => candidate.method === method && candidate.path === path);
  const request = async (index: number): Promise<BenchRequest> => {
    const options = await build(index);
    return { method, url: url(index), options };
  };
  return {
    name,
    handler: route?.handler ?? 'fallback',
    status,
    load: extra.load ?? 'standard',
    request,
    event: async (index) => {
      const { method: verb, url: target, options } = await request(index);
      return requestEvent(verb, target, options);
    },
  };
}
